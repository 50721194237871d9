"""Who a plan ran as: the subscription, tenant and deployer the offline engine answered for.

The fake ARM's own values, recorded on the plan so that what turns a plan into a real deployment
(`engine/arm/template.py`) can put ARM's functions in their place (`subscription().subscriptionId`,
`subscription().tenantId`, `deployer().objectId`) without reading the fake itself.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeploymentIdentity:
    subscription_id: str
    tenant_id: str
    deployer_object_id: str
