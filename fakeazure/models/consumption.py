"""Microsoft.Consumption: budgets, extension resources under a subscription or resource group."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, ClassVar

from ...catalog.limits import LIMITS
from ...sdk.values import dig, stable_uuid
from ..core import ArmResourceType, Resource, advise, scope_id
from ..errors import InvalidParameter

if TYPE_CHECKING:
    from ..core import Arm


EARLIEST_BUDGET_START = dt.date(2017, 6, 1)


class Budget(ArmResourceType):
    """A consumption budget, an extension resource under `scope`."""

    token = "azure-native:consumption:Budget"
    arm_type = "Microsoft.Consumption/budgets"
    name_input = "budgetName"
    scoped = True
    located = False
    max_notifications: ClassVar[int] = LIMITS.choices.budget_notifications_max

    def check(self, arm: Arm, name: str, props: dict[str, Any]) -> None:
        arm.require(scope_id(props.get("scope")), "scope")
        if not (props.get("amount") or 0) > 0:
            advise(
                arm, f"Budget '{name}'", f"amount {props.get('amount')!r} tracks nothing; a budget wants more than 0"
            )
        start = dig(props, "timePeriod", "startDate") or ""
        try:
            day = dt.date.fromisoformat(str(start)[:10])
        except ValueError:
            raise InvalidParameter(f"Budget '{name}': timePeriod.startDate {start!r} is not a date.") from None
        if day.day != 1:
            raise InvalidParameter(f"Budget '{name}': the start date must be the first day of a month, got {day}.")
        # "Budget start date must be on or after June 1, 2017" and "should be less than the end date"
        # (the REST API's BudgetTimePeriod, https://learn.microsoft.com/dotnet/api/azure.resourcemanager.consumption.
        # consumptionbudgetdata.timeperiod, observed 2026-11-25)
        if day < EARLIEST_BUDGET_START:
            raise InvalidParameter(
                f"Budget '{name}': timePeriod.startDate {day} is before {EARLIEST_BUDGET_START}; budget start date "
                "must be on or after June 1, 2017."
            )
        # An empty end date is no end date: AVM's budget module sends `endDate: ''` by default and Azure
        # accepts it (avm/res/consumption/budget, observed 2026-11-26).
        end = dig(props, "timePeriod", "endDate")
        if end not in (None, ""):
            try:
                end_day = dt.date.fromisoformat(str(end)[:10])
            except ValueError:
                raise InvalidParameter(f"Budget '{name}': timePeriod.endDate {end!r} is not a date.") from None
            if end_day <= day:
                raise InvalidParameter(
                    f"Budget '{name}': timePeriod.startDate {day} should be less than the end date {end_day}."
                )
        notifications = props.get("notifications") or {}
        if len(notifications) > self.max_notifications:
            raise InvalidParameter(
                f"Budget '{name}' has {len(notifications)} notifications; at most {self.max_notifications} are allowed."
            )
        for key, n in notifications.items():
            threshold = n.get("threshold")
            most = LIMITS.choices.budget_threshold_percent_max
            if not isinstance(threshold, (int, float)) or not 0 < threshold <= most:
                raise InvalidParameter(
                    f"Budget notification '{key}': threshold {threshold!r}; allowed: 0 to {most:g} percent."
                )
            if not (n.get("contactEmails") or n.get("contactGroups")):
                raise InvalidParameter(
                    f"Budget notification '{key}' needs at least one contact email or contact group."
                )

    def computed(self, arm: Arm, res: Resource) -> dict[str, Any]:
        return {"currentSpend": {"amount": 0.0, "unit": "USD"}, "eTag": stable_uuid(res.id, "etag")}


TYPES: tuple[ArmResourceType, ...] = (Budget(),)
