"""A type the fake does not model, placed by the type registry (catalog/arm): its id is ARM's, and its parent is
looked for only where the registry places the parent's type too.

ARM refuses a child whose parent does not exist (ParentResourceNotFound, Learn: "Resolve errors for parent
resource not found", observed 2026-11-27); a parent whose own type no public source places gets an id the fake
makes up, which a child's id could never name, so looking for it would refuse a program that creates both.
"""

from __future__ import annotations

import pytest
from azure_gpu_stacks.catalog.arm import registry
from azure_gpu_stacks.fakeazure import FakeArm
from azure_gpu_stacks.fakeazure.errors import ArmError

from tests.conftest import arm_with_group

RG = "rg"
SERVICE = {"resourceGroupName": RG, "serviceName": "apim"}


@pytest.fixture
def arm() -> FakeArm:
    return arm_with_group(RG)


def test_a_placed_generic_type_gets_arm_s_id(arm: FakeArm) -> None:
    app = arm.put("azure-native:web:WebApp", "app", {"resourceGroupName": RG, "name": "app1"}, "app")
    settings = arm.put(
        "azure-native:web:WebAppApplicationSettings", "settings", {"resourceGroupName": RG, "name": "app1"}, "s"
    )

    assert settings.id == f"{app.id}/config/appsettings"  # Learn: Microsoft.Web/sites/config, name 'appsettings'


def test_a_child_of_a_missing_parent_of_a_placed_type_is_refused_as_arm_refuses_it(arm: FakeArm) -> None:
    with pytest.raises(ArmError) as refused:
        arm.put("azure-native:web:WebAppApplicationSettings", "s", {"resourceGroupName": RG, "name": "nowhere"}, "s")

    assert refused.value.code == "ParentResourceNotFound"


def test_a_child_of_a_parent_whose_type_no_source_places_is_not_refused(arm: FakeArm) -> None:
    """API Management's notification (service/notifications) has no shape in any source the registry reads; its
    recipient e-mail (notifications/recipientEmails) has, and is not refused for a parent the fake cannot find."""
    assert registry.placement("azure-native:apimanagement:Notification") is None
    arm.put("azure-native:apimanagement:ApiManagementService", "apim", SERVICE, "apim")
    email = arm.put(
        "azure-native:apimanagement:NotificationRecipientEmail",
        "email",
        {**SERVICE, "notificationName": "RequestPublisherNotificationMessage", "email": "ops@example.com"},
        "email",
    )

    assert email.id.endswith(
        "/service/apim/notifications/RequestPublisherNotificationMessage/recipientEmails/ops@example.com"
    )
