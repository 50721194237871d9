"""Quota before `pulumi up`: the vCPUs a stack needs at full scale, per quota counter and region,
compared with the subscription's limits; and whether each size is offered there at all.

Which counters each pool draws on is one rule, `azure_gpu_stacks.catalog.quota_counters` (the fake ARM
charges the same counters): VMs, scale sets and AKS pools draw on Microsoft.Compute's quota (their
family and `cores`, or `lowPriorityCores` for Spot); Azure ML clusters and compute instances on
Azure ML's own (their family's `... Family Cluster Dedicated vCPUs` and `Total Cluster Dedicated
Regional vCPUs`, or `Total Cluster LowPriority Regional vCPUs` for LowPriority nodes).
Full scale: AKS pools at `maxCount`, Azure ML clusters at `maxNodeCount`, scale sets at capacity
(see `azure_gpu_stacks.catalog.demand`); the autoscaler fails to grow past the quota long after
`pulumi up` succeeds.

Limits come from files the Azure CLI saves: `az vm list-usage -l REGION -o json` for Compute and
`az ml compute list-usage --resource-group RG --workspace-name WS -o json` for Azure ML (read by
`azure_gpu_stacks.catalog.az_files`: counter names compared case-insensitively with spaces
removed), or, with `live_limits`, Compute's usage list asked of Azure through the Azure SDK (azure-identity's
default credential, azure-mgmt-core's pipeline), an optional extra: `pip install 'azure-gpu-stacks[azure]'`.
Each counter's remedy is its provider's: `az quota update` for Compute, the workspace's Usage +
quotas page for Azure ML (https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas,
observed 2026-11-22).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ...catalog import Catalog, catalog, normalize_size_name
from ...catalog.az_batch import read_batch_account
from ...catalog.az_files import (
    AML_DEDICATED_TOTAL,
    AML_LOW_PRIORITY_TOTAL,
    AzFileError,
    SkuOffer,
    Usage,
    family_key,
    read_aml_usage,
    read_skus,
    read_usage,
)
from ...catalog.demand import Demand, collect
from ...catalog.quota_counters import (
    BATCH_DEDICATED_TOTAL,
    BATCH_LOW_PRIORITY_TOTAL,
    COMPUTE_SPOT_POOL,
    COMPUTE_TOTAL,
    LOW_PRIORITY_COUNTERS,
    PROVIDERS,
    Provider,
    charges,
)
from ...inputs.files import shown
from ..errors import InputError
from ..report.tables import Format, table
from ..run.isolation import Limits
from ..run.plan import LOCATION_KEY, ReferenceFiles, plan_stack
from ..run.project import Project, load_stack
from ..secrets import Mask
from .live import LiveConnection, LiveQuotaFailed
from .live import live_limits as asked_azure

COMPUTE: Provider = PROVIDERS["compute"]
MACHINE_LEARNING: Provider = PROVIDERS["machinelearning"]
BATCH: Provider = PROVIDERS["batch"]
BATCH_QUOTA_COMMAND = "az batch account show --name ACCOUNT --resource-group RG -o json > batch-account.json"
AML_USAGE_COMMAND = "az ml compute list-usage --resource-group RG --workspace-name WS -o json"
SUBSCRIPTION_ENV = "AZURE_SUBSCRIPTION_ID"
AZURE_EXTRA_HINT = "pip install 'azure-gpu-stacks[azure]' (azure-identity and azure-mgmt-core)"

Verdict = Literal["ok", "exact", "short", "not listed", "no limits"]
# Verdicts that stop a deployment (exit 1).
BLOCKING: frozenset[str] = frozenset({"short"})


@dataclass
class QuotaNeed:
    """vCPUs one quota counter must hold for the stack at full scale."""

    region: str
    family: str  # as the usage API spells it
    vcpus: int = 0
    resources: list[str] = field(default_factory=list)
    provider: Provider = COMPUTE  # whose quota: Microsoft.Compute or Microsoft.MachineLearningServices

    @property
    def resource_type(self) -> str:
        """The `az quota --resource-type` of this counter."""
        return "lowPriority" if family_key(self.family) in LOW_PRIORITY_COUNTERS else "dedicated"


@dataclass(frozen=True)
class QuotaRow:
    need: QuotaNeed
    usage: Usage | None
    verdict: Verdict

    @property
    def free(self) -> int | None:
        return None if self.usage is None else self.usage.free

    @property
    def shortfall(self) -> int:
        return 0 if self.free is None else max(self.need.vcpus - self.free, 0)


@dataclass(frozen=True)
class Availability:
    size: str
    region: str
    refusal: str | None  # None when the size can be deployed there


@dataclass(frozen=True)
class QuotaReport:
    stack: str
    source: str | None  # where the limits came from; None without limits
    rows: list[QuotaRow]
    availability: list[Availability]
    unknown_sizes: list[str]
    subscription_id: str | None = None
    aml_source: str | None = None  # where Azure ML's limits came from; None without them
    batch_source: str | None = None  # where the Batch account's limits came from; None without them
    secret_values: frozenset[str] = frozenset()  # the plan's secrets: the report names resources, the CLI masks them

    @property
    def exit_code(self) -> int:
        blocked = any(r.verdict in BLOCKING for r in self.rows) or any(a.refusal for a in self.availability)
        return 1 if blocked else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "stack": self.stack,
            "limitsFrom": self.source,
            "amlLimitsFrom": self.aml_source,
            "batchLimitsFrom": self.batch_source,
            "quota": [
                {
                    "provider": r.need.provider,
                    "region": r.need.region,
                    "family": r.need.family,
                    "needed": r.need.vcpus,
                    "limit": None if r.usage is None else r.usage.limit,
                    "used": None if r.usage is None else r.usage.current,
                    "free": r.free,
                    "verdict": r.verdict,
                    "resources": r.need.resources,
                }
                for r in self.rows
            ],
            "availability": [{"size": a.size, "region": a.region, "refusal": a.refusal} for a in self.availability],
            "unknownSizes": self.unknown_sizes,
            "exitCode": self.exit_code,
        }


# Within a region: Compute's counters, then Azure ML's; each provider's families first, then its
# low-priority pool, then its regional total: the order a reader fixes them in.
_PROVIDER_ORDER = {COMPUTE: 0, MACHINE_LEARNING: 1, BATCH: 2}
_COUNTER_ORDER = {
    family_key(COMPUTE_SPOT_POOL): 1,
    family_key(COMPUTE_TOTAL): 2,
    family_key(AML_LOW_PRIORITY_TOTAL): 1,
    family_key(AML_DEDICATED_TOTAL): 2,
    family_key(BATCH_LOW_PRIORITY_TOTAL): 1,
    family_key(BATCH_DEDICATED_TOTAL): 2,
}


def needs(demands: Sequence[Demand], sizes: Catalog | None = None) -> tuple[list[QuotaNeed], list[str]]:
    """vCPUs per (region, quota counter) at full scale, and the sizes the catalog does not know."""
    sizes = sizes or catalog()
    found: dict[tuple[str, Provider, str], QuotaNeed] = {}
    unknown: list[str] = []
    for d in demands:
        size = sizes.find(d.size)
        if size is None:
            unknown.append(d.size)
            continue
        region = d.region or "unknown region"
        for charge in charges(d.quota, size.quota_family, d.discounted, size.vcpus * d.count):
            key = (region, charge.provider, family_key(charge.counter))
            need = found.setdefault(key, QuotaNeed(region, charge.counter, provider=charge.provider))
            need.vcpus += charge.vcpus
            if d.resource not in need.resources:
                need.resources.append(d.resource)
    rows = sorted(
        found.values(),
        key=lambda n: (
            n.region,
            _PROVIDER_ORDER[n.provider],
            _COUNTER_ORDER.get(family_key(n.family), 0),
            n.family.lower(),
        ),
    )
    return [n for n in rows if n.vcpus > 0], unknown


def verdict(need: QuotaNeed, usage: Usage | None, have_limits: bool) -> Verdict:
    if not have_limits:
        return "no limits"
    if usage is None:
        return "not listed"
    if need.vcpus > usage.free:
        return "short"
    return "exact" if need.vcpus == usage.free else "ok"


def compare(
    stack: str,
    quota_needs: Sequence[QuotaNeed],
    limits: Callable[[str], Mapping[str, Usage]] | None,
    source: str | None,
    *,
    skus: Mapping[str, SkuOffer] | None = None,
    demands: Sequence[Demand] = (),
    unknown_sizes: Sequence[str] = (),
    subscription_id: str | None = None,
    aml_limits: Mapping[str, Usage] | None = None,
    aml_source: str | None = None,
    batch_limits: Mapping[str, Usage] | None = None,
    batch_source: str | None = None,
) -> QuotaReport:
    """Each need against its provider's limits (Compute's `limits(region)`, Azure ML's `aml_limits`, the Batch
    account's `batch_limits`; counters keyed by `family_key`), and sizes against `skus`."""
    by_region: dict[str, Mapping[str, Usage]] = {}
    rows = []
    for need in quota_needs:
        usage = None
        have = {COMPUTE: limits, MACHINE_LEARNING: aml_limits, BATCH: batch_limits}[need.provider] is not None
        if need.provider == BATCH and batch_limits is not None:
            usage = batch_limits.get(family_key(need.family))
        elif need.provider == MACHINE_LEARNING and aml_limits is not None:
            usage = aml_limits.get(family_key(need.family))
        elif need.provider == COMPUTE and limits is not None:
            if need.region not in by_region:
                by_region[need.region] = limits(need.region)
            usage = by_region[need.region].get(family_key(need.family))
        rows.append(QuotaRow(need, usage, verdict(need, usage, have)))
    availability = []
    if skus is not None:
        seen: set[tuple[str, str]] = set()
        for d in demands:
            key = (normalize_size_name(d.size), d.region or "")
            if key in seen or d.region is None:
                continue
            seen.add(key)
            offer = skus.get(key[0])
            availability.append(
                Availability(d.size, d.region, offer.refusal(d.region) if offer else "not listed in the SKU file")
            )
    return QuotaReport(
        stack, source, rows, availability, list(unknown_sizes), subscription_id, aml_source, batch_source
    )


def live_connection(subscription: str, timeout_s: float) -> LiveConnection:
    """How `--live` reaches Azure (tests replace it with recorded answers)."""
    return LiveConnection(subscription, timeout_s)


def live_limits(subscription_id: str | None, timeout_s: float = 120.0) -> tuple[Callable[[str], dict[str, Usage]], str]:
    """A `limits(region)` that asks Azure (`engine.estimate.live`), and the subscription.

    Needs the optional extra; raises InputError when it is missing or no subscription is named; the
    limits raise LiveQuotaFailed when Azure cannot be asked or answers with something else than quota.
    """
    try:
        import azure.identity  # noqa: F401
        import azure.mgmt.core  # noqa: F401
    except ImportError:
        raise InputError(f"--live needs the Azure SDK, an optional extra: {AZURE_EXTRA_HINT}") from None
    subscription = subscription_id or os.environ.get(SUBSCRIPTION_ENV)
    if not subscription:
        raise InputError(f"--live needs a subscription: pass --subscription ID or set {SUBSCRIPTION_ENV}")
    from ..arm.clouds import SUBSCRIPTION_ID

    if not SUBSCRIPTION_ID.match(subscription):
        given = "--subscription" if subscription_id else f"${SUBSCRIPTION_ENV}"
        raise InputError(
            f"{given} {shown(subscription)}: not a subscription id; allowed: a GUID as `az account show --query id` "
            "prints it"
        )
    return asked_azure(live_connection(subscription, timeout_s)), subscription


def _request_steps(row: QuotaRow, subscription_id: str | None) -> list[str]:
    """How to raise the counter `row` is short of: each provider has its own way."""
    need = row.need
    assert row.usage is not None
    new_limit = row.usage.current + need.vcpus
    head = f"  {need.family} in {need.region}: short by {row.shortfall} vCPUs; request a limit of at least {new_limit}:"
    if need.provider == MACHINE_LEARNING:
        # https://learn.microsoft.com/azure/machine-learning/how-to-manage-quotas#vm-quota-increases (2026-11-22)
        return [
            head,
            f"    Azure ML quota, apart from the VM quota: in the Azure portal open the workspace > Usage + quotas > "
            f"region {need.region} > {need.family} > Request quota > {new_limit}",
            "    or in Azure Machine Learning studio: https://ml.azure.com/quota",
        ]
    scope = (
        f"/subscriptions/{subscription_id or '<subscription-id>'}/providers/Microsoft.Compute/locations/{need.region}"
    )
    return [
        head,
        f"    az quota update --resource-name {need.family} --scope {scope} "
        f"--limit-object value={new_limit} --resource-type {need.resource_type}",
        f"    or in the portal: Quotas > Compute > region {need.region} > {need.family} > New quota request > "
        f"{new_limit}",
    ]


def _sources(report: QuotaReport) -> str:
    """Where the limits came from, or which options give them."""
    has_aml = any(r.need.provider == MACHINE_LEARNING for r in report.rows)
    has_batch = any(r.need.provider == BATCH for r in report.rows)
    found = [f"limits from {report.source}"] if report.source else []
    if report.aml_source and has_aml:
        found.append(f"Azure ML limits from {report.aml_source}")
    if report.batch_source and has_batch:
        found.append(f"Batch account limits from {report.batch_source}")
    if found:
        return "; ".join(found)
    if has_batch:
        return "no limits given: pass --batch-account FILE"
    return "no limits given: pass --usage FILE or --live" + (", and --aml-usage FILE" if has_aml else "")


def render(report: QuotaReport, fmt: Format = "text") -> str:
    rows = [
        [
            r.need.region,
            f"{r.need.family} (Batch account)" if r.need.provider == BATCH else r.need.family,
            str(r.need.vcpus),
            "?" if r.usage is None else str(r.usage.limit),
            "?" if r.free is None else str(r.free),
            r.verdict,
        ]
        for r in report.rows
    ]
    lines = [f"Quota for {report.stack} at full scale ({_sources(report)}):", ""]
    lines.append(
        table(["region", "family", "needed", "limit", "free", "verdict"], rows, fmt, right=(2, 3, 4))
        if rows
        else "  no VMs"
    )
    if report.availability:
        lines += ["", "Availability:", ""]
        lines.append(
            table(
                ["size", "region", "verdict"],
                [[a.size, a.region, a.refusal or "available"] for a in report.availability],
                fmt,
            )
        )
    if report.unknown_sizes:
        lines += ["", "Not counted, sizes the catalog does not know: " + ", ".join(sorted(set(report.unknown_sizes)))]
    listed = [r for r in report.rows if r.verdict == "not listed"]
    if listed:
        lines += ["", "Not in the limits: " + ", ".join(f"{r.need.family} ({r.need.region})" for r in listed)]
    unchecked_aml = [r for r in report.rows if r.need.provider == MACHINE_LEARNING and r.verdict == "no limits"]
    if unchecked_aml:
        lines += ["", f"Azure ML quota not checked: pass --aml-usage FILE, saved by `{AML_USAGE_COMMAND}`."]
    if any(r.need.provider == BATCH and r.verdict == "no limits" for r in report.rows):
        lines += [
            "",
            "Batch account quota (Microsoft.Batch rows: the Batch-managed account's own dedicated cores per family "
            "and its one low-priority/Spot core quota, often 0 for GPU families in a new account) not checked: pass "
            f"--batch-account FILE, saved by `{BATCH_QUOTA_COMMAND}`; request more in the portal (Batch account > "
            "Quotas). A user-subscription "
            "account's pools draw on the subscription's Microsoft.Compute rows instead.",
        ]
    short = [r for r in report.rows if r.verdict == "short"]
    if any(r.need.provider == COMPUTE for r in short):
        lines += ["", "To request more quota (az quota needs `az extension add --name quota`):"]
        for r in short:
            if r.need.provider == COMPUTE:
                lines += _request_steps(r, report.subscription_id)
    if any(r.need.provider == BATCH for r in short):
        lines += [
            "",
            "To request more Batch account quota: the portal's Batch account > Quotas > Request quota increase "
            "(https://learn.microsoft.com/azure/batch/batch-quota-limit). The account's limits were read without "
            "what its existing pools use.",
        ]
    if any(r.need.provider == MACHINE_LEARNING for r in short):
        lines += ["", "To request more Azure ML quota:"]
        for r in short:
            if r.need.provider == MACHINE_LEARNING:
                lines += _request_steps(r, report.subscription_id)
    if report.exit_code:
        lines += ["", f"FAILED: {report.stack}: not enough quota, or a size not available."]
    elif not report.rows or all(r.verdict == "no limits" for r in report.rows):
        lines += ["", f"{report.stack}: needs listed; no limits to compare them with."]
    elif any(r.verdict == "no limits" for r in report.rows):
        lines += [
            "",
            f"OK: {report.stack}: the limits given hold the stack at full scale; the others were not checked.",
        ]
    else:
        lines += ["", f"OK: {report.stack}: the quota holds the stack at full scale."]
    return "\n".join(lines)


def quota_report(
    project: Project,
    stack: str,
    *,
    day: dt.date,
    usage_file: Path | None = None,
    aml_usage_file: Path | None = None,
    batch_account_file: Path | None = None,
    skus_file: Path | None = None,
    live: bool = False,
    subscription_id: str | None = None,
    live_timeout_s: float = 120.0,
    run_limits: Limits | None = None,
    reference: ReferenceFiles | None = None,
) -> QuotaReport:
    """Plan `stack` offline on `day` and compare what it needs with the limits (a usage file, or Azure)."""
    if live and usage_file is not None:
        raise InputError("--usage and --live both give the limits; pass one of them")
    try:
        usage = read_usage(usage_file) if usage_file else None
        aml_usage = read_aml_usage(aml_usage_file) if aml_usage_file else None
        batch_usage = read_batch_account(batch_account_file) if batch_account_file else None
        skus = read_skus(skus_file) if skus_file else None
    except AzFileError as exc:
        raise InputError(str(exc)) from None
    limits: Callable[[str], Mapping[str, Usage]] | None = None
    source = None
    if usage is not None:
        limits, source = (lambda region: usage), str(usage_file)
    elif live:
        limits, subscription_id = live_limits(subscription_id, live_timeout_s)
        source = f"Azure, subscription {subscription_id}"
    # The plan runs without the limits, so that every resource is recorded and counted here.
    # (Other stacks' outputs and existing resources still apply: the program needs them to run.)
    runs_with = (
        ReferenceFiles(
            stack_outputs=reference.stack_outputs, organization=reference.organization, existing=reference.existing
        )
        if reference is not None
        else None
    )
    plan = plan_stack(project, stack, runs_with, day=day, limits=run_limits)
    region = load_stack(project, stack).config.get(LOCATION_KEY)
    demands = collect(plan.resources, region)
    quota_needs, unknown = needs(demands)
    try:
        report = compare(
            plan.stack,
            quota_needs,
            limits,
            source,
            skus=skus,
            demands=demands,
            unknown_sizes=unknown,
            subscription_id=subscription_id,
            aml_limits=aml_usage,
            aml_source=str(aml_usage_file) if aml_usage_file else None,
            batch_limits=batch_usage,
            batch_source=str(batch_account_file) if batch_account_file else None,
        )
    except LiveQuotaFailed as exc:  # Azure may quote a request value back in any case
        raise InputError(exc.line(Mask(plan.secret_values, ignore_case=True))) from None
    return dataclasses.replace(report, secret_values=plan.secret_values)
