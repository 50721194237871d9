"""Azure offers (a resource type with one SKU) that Azure no longer creates, other than VM sizes: each
with the day it stopped, what to move to and the public page that says so.

An offer whose refused create has Azure's error code and message on a public page (`refusal`) is refused
offline with them; the others are advisories (a plan warning), never refusals: a refusal needs Azure's
code from a public source.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CDN_PROFILE = "azure-native:cdn:Profile"
PUBLIC_IP = "azure-native:network:PublicIPAddress"


@dataclass(frozen=True)
class RetiredOffer:
    """Resources of `token` whose `sku.name` is `sku` cannot be created from `since` on."""

    token: str
    sku: str
    since: dt.date
    what: str
    move_to: str
    source: str
    observed: dt.date
    # (code, message) Azure answers a create with, and the public page that quotes it; None: not known
    refusal: tuple[str, str] | None = None
    refusal_source: str = ""


RETIRED_OFFERS: tuple[RetiredOffer, ...] = (
    RetiredOffer(
        CDN_PROFILE,
        "Standard_Microsoft",
        dt.date(2025, 8, 15),
        "Azure CDN Standard from Microsoft (classic) no longer supports profile creation since 2025-08-15 "
        "(retired on 2027-09-30)",
        "an Azure Front Door Standard or Premium profile (sku Standard_AzureFrontDoor or Premium_AzureFrontDoor)",
        # "Starting August 15, 2025, Azure CDN from Microsoft (classic) will no longer support new domain
        # onboarding or profile creation."
        "https://learn.microsoft.com/azure/cdn/cdn-manage-powershell",
        dt.date(2026, 11, 26),
        ("BadRequest", "Azure CDN from Microsoft (classic) no longer support new profile creation."),
        # a deployment on 2025-08-18 failing with "Azure CDN from Microsoft (classic) no longer support new
        # profile creation. (Code: BadRequest)" (observed 2026-11-27)
        "https://github.com/Azure/wordpress-linux-appservice/issues/206",
    ),
    *(
        RetiredOffer(
            CDN_PROFILE,
            sku,
            dt.date(2025, 1, 15),
            "Azure CDN from Edgio (formerly Verizon) was retired on 2025-01-15",
            "an Azure Front Door Standard or Premium profile (sku Standard_AzureFrontDoor or Premium_AzureFrontDoor)",
            # "Azure CDN from Edgio was retired on January 15, 2025."
            "https://learn.microsoft.com/azure/cdn/cdn-change-provider",
            dt.date(2026, 11, 26),
        )
        for sku in ("Standard_Verizon", "Premium_Verizon", "Custom_Verizon")
    ),
    RetiredOffer(
        PUBLIC_IP,
        "Basic",
        dt.date(2025, 9, 30),
        "Basic SKU public IPs retired on 2025-09-30",
        "a Standard SKU public IP (static allocation)",
        # "Basic SKU public IPs retired on September 30, 2025"; the date read by the fake's prose rule
        # (fakeazure/prose.py, basic-retired) and the plan path (fakeazure/mocks.py)
        "https://learn.microsoft.com/azure/virtual-network/ip-services/public-ip-basic-upgrade-guidance",
        dt.date(2026, 11, 26),
        (
            "IPv4BasicSkuPublicIpCountLimitReached",
            "Cannot create more than 0 IPv4 Basic SKU public IP addresses for this subscription in this region.",
        ),
        "public Terraform logs (code corpus, observed 2026-11-26)",
    ),
    RetiredOffer(
        CDN_PROFILE,
        "Standard_Akamai",
        dt.date(2023, 10, 31),
        "Azure CDN Standard from Akamai is no longer supported since 2023-10-31",
        "an Azure Front Door Standard or Premium profile (sku Standard_AzureFrontDoor or Premium_AzureFrontDoor)",
        # Microsoft's answer on Learn Q&A: "on 31 October 2023, services of Azure CDN Standard from Akamai
        # will no longer be supported"
        "https://learn.microsoft.com/answers/questions/1365890/maintain-of-azure-cdn-endpoint-with-akamai-retirem",
        dt.date(2026, 11, 26),
    ),
)


def retired_offer(token: str, props: Mapping[str, Any], day: dt.date) -> RetiredOffer | None:
    """The offer a resource asks for that Azure no longer creates on `day`, or None."""
    sku = props.get("sku")
    name = sku.get("name") if isinstance(sku, Mapping) else None
    return next(
        (o for o in RETIRED_OFFERS if o.token == token and o.sku == name and o.since <= day),
        None,
    )


def advisory(resource: str, offer: RetiredOffer) -> str:
    """The plan's warning for `resource`."""
    return f"{resource}: sku {offer.sku}: {offer.what}; use {offer.move_to} ({offer.source})"
