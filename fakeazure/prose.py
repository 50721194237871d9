"""Azure's rules that live in prose (a spec description, a Learn page, Azure's own error messages), kept as data.

Each `ProseRule` names the ARM type it binds, what it asks, its public source, the code Azure answers, and a check
that returns the message of a refusal (or None). Name and length rules come from one table built from Learn's
resource-name-rules page (`catalog/arm/name_rules.json`, read through `catalog.names`). A rule whose code or
limit has no public source is not here as a refusal: `SKIPPED` lists what the fake knowingly does not check, with
the reason. The backend refuses the first of `prose_refusals` for every PUT, before the type's own checks;
docs/azure-conformance.md's table is generated from `RULES` and `SKIPPED` (scripts/conformance.py).
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..catalog.names import name_rule, name_table, windows_max
from ..catalog.retired_offers import PUBLIC_IP, RETIRED_OFFERS
from ..sdk.values import dig
from .errors import ArmError, coded

COMPUTE_SPEC = (
    "azure-rest-api-specs "
    "specification/compute/resource-manager/Microsoft.Compute/ComputeRP/stable/2024-11-01/virtualMachine.json"
)
VM = "Microsoft.Compute/virtualMachines"
VMSS = "Microsoft.Compute/virtualMachineScaleSets"
PIP = "Microsoft.Network/publicIPAddresses"
NSG = "Microsoft.Network/networkSecurityGroups"
NIC = "Microsoft.Network/networkInterfaces"
VNET = "Microsoft.Network/virtualNetworks"
SUBNET = "Microsoft.Network/virtualNetworks/subnets"

Check = Callable[[str, dict[str, Any]], str | None]


@dataclass(frozen=True)
class ProseRule:
    id: str
    arm_type: str
    asks: str  # the rule in words
    source: str  # spec file and JSON pointer, Learn page and date, or where Azure's error was seen
    code: str  # what Azure answers
    check: Check


@dataclass(frozen=True)
class SkippedRule:
    id: str
    arm_type: str
    asks: str
    source: str
    why: str


# --- names: one table from Learn ------------------------------------------------------------------------------


def _name_check(arm_type: str) -> Check:
    def check(name: str, props: dict[str, Any]) -> str | None:
        rule = name_rule(arm_type)
        if rule.matches(name):
            return None
        return (
            f"Resource name {name} is invalid. The name can be {rule.min_length} to {rule.max_length} characters "
            f"long: {rule.allowed}."
        )

    return check


def _name_source() -> str:
    table = name_table()
    return f"{table['source']} (observed {table['observed']}); code: {table['codeSeen']}"


def _name_rules() -> list[ProseRule]:
    """The table's rules no type's own check answers (a rule with `checkedBy` is its module's, with its code)."""
    table = name_table()
    return [
        ProseRule(
            f"name:{t}",
            t,
            f"name: {r['min']}-{r['max']} characters; {r['allowed']}",
            _name_source(),
            table["code"],
            _name_check(t),
        )
        for t, r in table["rules"].items()
        if "checkedBy" not in r
    ]


def _skipped_names() -> list[SkippedRule]:
    return [
        SkippedRule(f"name:{t}", t, f"name: {r['min']}-{r['max']} characters; {r['allowed']}", _name_source(), r["why"])
        for t, r in name_table()["skipped"].items()
    ]


# --- VM and scale set osProfile -------------------------------------------------------------------------------

# "Disallowed values" of OSProfile.adminUsername (the spec's description, 2024-11-01)
RESERVED_ADMIN_NAMES = frozenset(
    "administrator admin user user1 test user2 test1 user3 admin1 1 123 a actuser adm admin2 aspnet backup console "
    "david guest john owner root server sql support support_388945a0 sys test2 test3 user4 user5".split()
)
# "Disallowed values" of OSProfile.adminPassword (the spec's description, 2024-11-01)
COMMON_PASSWORDS = frozenset(
    "abc@123 P@$$w0rd P@ssw0rd P@ssword123 Pa$$word pass@word1 Password! Password1 Password22 iloveyou!".split()
)
PLACEHOLDER = re.compile(r"^\{[^{}]+\}$")
MAX_CUSTOM_DATA_BYTES = 65535  # OSProfile.customData: "The maximum length of the binary array is 65535 bytes."


def _profile(arm_type: str, props: dict[str, Any]) -> dict[str, Any]:
    """Where the type keeps its VM profile: the body itself (VM) or `virtualMachineProfile` (scale set)."""
    return (props.get("virtualMachineProfile") or {}) if arm_type == VMSS else props


def _windows(profile: dict[str, Any]) -> bool:
    os_profile = profile.get("osProfile") or {}
    return (
        bool(os_profile.get("windowsConfiguration")) or dig(profile, "storageProfile", "osDisk", "osType") == "Windows"
    )


def _os_rule(
    arm_type: str, key: str, asks: str, pointer: str, check: Callable[[dict[str, Any]], str | None]
) -> ProseRule:
    def run(name: str, props: dict[str, Any]) -> str | None:
        return check(_profile(arm_type, props))

    return ProseRule(
        f"{key}:{arm_type}",
        arm_type,
        asks,
        f"{COMPUTE_SPEC} {pointer} (description, observed 2026-11-26)",
        "InvalidParameter",
        run,
    )


def _admin_name(profile: dict[str, Any]) -> str | None:
    user = dig(profile, "osProfile", "adminUsername")
    if not isinstance(user, str):
        return None
    if user.lower() in RESERVED_ADMIN_NAMES:
        return f"The Admin Username specified is not allowed: '{user}' is a reserved name (osProfile.adminUsername)."
    most = 20 if _windows(profile) else 64
    if len(user) > most:
        system = "Windows" if most == 20 else "Linux"
        return f"osProfile.adminUsername is {len(user)} characters; at most {most} ({system})."
    return None


# Azure's own answers to a host name it refuses (osProfile.computerName), code InvalidParameter: "Linux host name
# cannot exceed 64 characters in length or contain the following characters: ` ~ ! @ # $ % ^ & * ( ) = + _ [ ] { } \\ |
# ; : ' \" , < > / ?." (hashicorp/terraform-provider-azurerm issue 280, 2017) and "Windows computer name cannot be more
# than 15 characters long, be entirely numeric, or contain the following characters: ` ~ ! @ # $ % ^ & * ( ) = + _ [ ]
# { } \\ | ; : . ' \" , < > / ?." (New-AzVM's output, quoted in public scripts; code corpus, observed 2026-11-27).
# Learn's resource-name-rules adds: "Windows VMs can't include period or end with hyphen. Linux VMs can't end with
# period or hyphen." (the rules of its virtualMachines row are for the host name, its note says).
HOST_NAME_FORBIDDEN = set("`~!@#$%^&*()=+_[]{}\\|;:'\",<>/?")


def _computer_name(profile: dict[str, Any]) -> str | None:
    computer = dig(profile, "osProfile", "computerName")
    if not isinstance(computer, str) or PLACEHOLDER.match(computer):
        return None
    bad = sorted({c for c in computer if c in HOST_NAME_FORBIDDEN or c.isspace()})
    most = name_table()["rules"][VM]["hostName"]
    if _windows(profile):
        if len(computer) > most["windows"] or computer.isdigit() or "." in computer or bad or computer.endswith("-"):
            return (
                f"Windows computer name '{computer}' cannot be more than {most['windows']} characters long, "
                "be entirely numeric, end with a hyphen, or contain the following characters: "
                "` ~ ! @ # $ % ^ & * ( ) = + _ [ ] { } \\ | ; : . ' \" , < > / ? (osProfile.computerName)."
            )
        return None
    if len(computer) > most["linux"] or bad or computer.endswith((".", "-")):
        return (
            f"Linux host name '{computer}' cannot exceed {most['linux']} characters in length, end with a period or "
            "hyphen, or contain the following characters: "
            "` ~ ! @ # $ % ^ & * ( ) = + _ [ ] { } \\ | ; : ' \" , < > / ? (osProfile.computerName)."
        )
    return None


def _password(profile: dict[str, Any]) -> str | None:
    password = dig(profile, "osProfile", "adminPassword")
    if not isinstance(password, str) or PLACEHOLDER.match(password):
        # Unknown or secret-wrapped values are not judged, nor a `{placeholder}` (the convention of the spec's
        # examples, `{your-password}`), which stands for a value.
        return None
    windows = _windows(profile)
    low, high = (8, 123) if windows else (6, 72)
    classes = sum(bool(re.search(p, password)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[\W_]"))
    # The password itself is never printed.
    if not low <= len(password) <= high:
        return f"The supplied password must be between {low}-{high} characters long (osProfile.adminPassword)."
    if classes < 3 or password in COMMON_PASSWORDS:
        return (
            "The supplied password must satisfy at least 3 of: a lower-case letter, an upper-case letter, a digit, "
            "a special character, and must not be a common password (osProfile.adminPassword)."
        )
    return None


def _custom_data(profile: dict[str, Any]) -> str | None:
    data = dig(profile, "osProfile", "customData")
    if not isinstance(data, str):
        return None
    try:
        decoded = base64.b64decode(data, validate=True)
    except (ValueError, binascii.Error):
        return "osProfile.customData is not base64."
    if len(decoded) > MAX_CUSTOM_DATA_BYTES:
        return f"osProfile.customData is {len(decoded)} bytes once decoded; at most {MAX_CUSTOM_DATA_BYTES}."
    return None


def _max_price(profile: dict[str, Any]) -> str | None:
    price = dig(profile, "billingProfile", "maxPrice")
    if isinstance(price, (int, float)) and not (price == -1 or price > 0):
        return f"billingProfile.maxPrice {price:g}: allowed: -1 (up to the on-demand price) or a value greater than 0."
    return None


def _luns(profile: dict[str, Any]) -> str | None:
    luns = [d.get("lun") for d in dig(profile, "storageProfile", "dataDisks") or [] if isinstance(d, dict)]
    repeated = sorted({str(lun) for lun in luns if luns.count(lun) > 1})
    if repeated:
        return (
            f"storageProfile.dataDisks: lun {', '.join(repeated)} is used by more than one data disk; each must be "
            f"unique."
        )
    return None


# "You can now create Azure Virtual Machine Scale Sets with a capacity of up to 1,000 VMs"
# (https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups, observed
# 2026-11-27); a count of VMs is not negative. Compute's answer to a value it refuses: "The value of parameter X is
# invalid" (InvalidParameter; Learn's error-code-invalidparameter troubleshooting page).
SCALE_SET_CAPACITY = (0, 1000)


def _scale_set_capacity(name: str, props: dict[str, Any]) -> str | None:
    capacity = dig(props, "sku", "capacity")
    low, high = SCALE_SET_CAPACITY
    if isinstance(capacity, (int, float)) and not isinstance(capacity, bool) and not low <= capacity <= high:
        return f"The value of parameter sku.capacity is invalid: {capacity:g}; allowed: {low} to {high} VMs."
    return None


def _vm_rules() -> list[ProseRule]:
    out = []
    for t in (VM, VMSS):
        out += [
            _os_rule(
                t,
                "admin-name",
                "adminUsername not reserved; at most 20 (Windows) / 64 (Linux) characters",
                "#/definitions/OSProfile/properties/adminUsername",
                _admin_name,
            ),
            _os_rule(
                t,
                "password",
                "adminPassword 8-123 (Windows) / 6-72 (Linux) characters, 3 of 4 character classes, not a common "
                "password",
                "#/definitions/OSProfile/properties/adminPassword",
                _password,
            ),
            _os_rule(
                t,
                "custom-data",
                "customData base64, at most 65535 bytes decoded",
                "#/definitions/OSProfile/properties/customData",
                _custom_data,
            ),
            _os_rule(
                t,
                "max-price",
                "billingProfile.maxPrice -1 or greater than 0",
                "#/definitions/BillingProfile/properties/maxPrice",
                _max_price,
            ),
            _os_rule(t, "lun", "data disk LUNs unique", "#/definitions/DataDisk/properties/lun", _luns),
        ]
    out.append(
        ProseRule(
            "capacity",
            VMSS,
            "sku.capacity 0 to 1000 VMs",
            "https://learn.microsoft.com/azure/virtual-machine-scale-sets/virtual-machine-scale-sets-placement-groups "
            "('a capacity of up to 1,000 VMs', observed 2026-11-27); Compute's 'The value of parameter ... is invalid' "
            "(https://learn.microsoft.com/troubleshoot/azure/azure-kubernetes/create-upgrade-delete/"
            "error-code-invalidparameter)",
            "InvalidParameter",
            _scale_set_capacity,
        )
    )
    out.append(
        ProseRule(
            f"computer-name:{VM}",
            VM,
            "computerName (the host name): at most 15 characters, not all digits, no period (Windows) / at most 64 "
            "(Linux); none of ` ~ ! @ # $ % ^ & * ( ) = + _ [ ] { } \\ | ; : ' \" , < > / ? or spaces; not ending "
            "with a hyphen (or, on Linux, a period)",
            "Azure's errors 'Linux host name cannot exceed 64 characters in length or contain the following "
            "characters: ...' (hashicorp/terraform-provider-azurerm issue 280) and 'Windows computer name cannot be "
            "more than 15 characters long, be entirely numeric, or contain ...' (New-AzVM's output quoted in public "
            "scripts); https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules "
            "(Microsoft.Compute virtualMachines and its note; observed 2026-11-27)",
            "InvalidParameter",
            lambda name, props: _computer_name(props),
        )
    )
    return out


# --- network --------------------------------------------------------------------------------------------------

DNS_LABEL = re.compile(r"^[a-z][a-z0-9-]{1,61}[a-z0-9]$")


def _dns_label(name: str, props: dict[str, Any]) -> str | None:
    label = dig(props, "dnsSettings", "domainNameLabel")
    if isinstance(label, str) and not DNS_LABEL.match(label):
        return (
            f"The domain name label {label} is invalid. It must conform to the following regular expression: "
            f"{DNS_LABEL.pattern}."
        )
    return None


def _idle_timeout(name: str, props: dict[str, Any]) -> str | None:
    minutes = props.get("idleTimeoutInMinutes")
    if isinstance(minutes, (int, float)) and not 4 <= minutes <= 30:
        return f"idleTimeoutInMinutes {minutes:g}; allowed: 4 to 30 minutes."
    return None


def _standard_static(name: str, props: dict[str, Any]) -> str | None:
    if dig(props, "sku", "name") == "Standard" and props.get("publicIPAllocationMethod") == "Dynamic":
        return f"Standard sku publicIp {name} must have AllocationMethod set to Static."
    return None


# The retired Basic SKU, its date, Azure's code and words: one home, the catalog's retired offers.
BASIC_PIP = next(o for o in RETIRED_OFFERS if o.token == PUBLIC_IP and o.sku == "Basic")
BASIC_PIP_CODE, BASIC_PIP_MESSAGE = BASIC_PIP.refusal or ("", "")


def _basic_retired(name: str, props: dict[str, Any]) -> str | None:
    if str(dig(props, "sku", "name") or "").lower() == BASIC_PIP.sku.lower():
        return BASIC_PIP_MESSAGE
    return None


# A NIC's IP configuration names its subnet by id, which Azure parses as a subnet's before it looks anything up: a
# virtual network's own id, a name, or an id with a segment missing or misspelt is refused (SUBNET_REFERENCE).
SUBNET_REFERENCE = (
    "Azure's 'InvalidRequestFormat: Cannot parse the request.' with the detail 'InvalidJsonReferenceFormat: Reference "
    "Id ... is not formatted correctly. The Id is expected to reference resources of type virtualNetworks/subnets. "
    "Path properties.ipConfigurations[0].properties.subnet.' (Azure/azure-quickstart-templates issue 2080, "
    "Azure/azure-cli issue 1458, Azure/azure-cli-extensions issue 7855; observed 2026-11-27)"
)
SUBNET_ID = re.compile(
    r"^(?P<network>/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\.Network/virtualNetworks/[^/]+)"
    r"/subnets/[^/]+$",
    re.IGNORECASE,
)


def subnet_network(subnet_id: str) -> str | None:
    """The id of the virtual network a subnet id names, or None for an id that is no subnet's."""
    match = SUBNET_ID.match(subnet_id)
    return match["network"] if match else None


def _subnet_reference(name: str, props: dict[str, Any]) -> str | None:
    for i, cfg in enumerate(props.get("ipConfigurations") or []):
        subnet_id = dig(cfg, "subnet", "id")
        if subnet_id is not None and subnet_network(str(subnet_id)) is None:
            return (
                f"Cannot parse the request. (InvalidJsonReferenceFormat) Reference Id {subnet_id} is not formatted "
                "correctly. The Id is expected to reference resources of type virtualNetworks/subnets. Path "
                f"properties.ipConfigurations[{i}].properties.subnet."
            )
    return None


def _prefixes(props: dict[str, Any]) -> list[Any]:
    """Every address prefix of a VNet (its space and inline subnets) or of a subnet."""
    prefixes = list(dig(props, "addressSpace", "addressPrefixes") or [])
    prefixes += [props.get("addressPrefix")] + list(props.get("addressPrefixes") or [])
    for subnet in props.get("subnets") or []:
        body = subnet.get("properties") if isinstance(subnet.get("properties"), dict) else subnet
        prefixes += [body.get("addressPrefix")] + list(body.get("addressPrefixes") or [])
    return [p for p in prefixes if isinstance(p, str)]


def prefix_format_message(prefix: str, resource: str) -> str | None:
    """Azure's InvalidAddressPrefixFormat message when `prefix` is not CIDR notation (no length, a bad octet...)."""
    try:
        if "/" not in prefix:
            raise ValueError
        ipaddress.ip_network(prefix, strict=False)
    except ValueError:
        return (
            f"Address prefix {prefix} of resource {resource} is not formatted correctly. It should follow CIDR "
            "notation, for example 10.0.0.0/24."
        )
    return None


def host_bits_message(prefix: str, resource: str) -> str | None:
    """Azure's InvalidCIDRNotation message when a well-formed `prefix` has host bits set (10.1.0.1/24)."""
    network = ipaddress.ip_network(prefix, strict=False)
    try:
        ipaddress.ip_network(prefix, strict=True)
    except ValueError:
        return (
            f"The address prefix {prefix} in resource {resource} has an invalid CIDR notation. For the given prefix "
            f"length, the address prefix should be {network}."
        )
    return None


def _prefix_format(name: str, props: dict[str, Any]) -> str | None:
    return next((m for p in _prefixes(props) if (m := prefix_format_message(p, name)) is not None), None)


def _prefix_host_bits(name: str, props: dict[str, Any]) -> str | None:
    for prefix in _prefixes(props):
        if prefix_format_message(prefix, name) is None and (message := host_bits_message(prefix, name)) is not None:
            return message
    return None


def _ports(rule: dict[str, Any]) -> list[str]:
    return [
        str(p) for key in ("sourcePortRange", "destinationPortRange") if rule.get(key) is not None for p in [rule[key]]
    ] + [str(p) for key in ("sourcePortRanges", "destinationPortRanges") for p in rule.get(key) or []]


def _port_range(name: str, props: dict[str, Any]) -> str | None:
    for rule in props.get("securityRules") or []:
        for value in _ports(rule):
            if value == "*":
                continue
            bounds = value.split("-")
            if len(bounds) > 2 or not all(b.isdigit() and 0 <= int(b) <= 65535 for b in bounds):
                return (
                    f"Security rule has invalid Port range. Value provided: {value}. Value should be an integer OR "
                    "integer range with '-' delimiter. Valid range 0-65535."
                )
    return None


def _address_prefix(name: str, props: dict[str, Any]) -> str | None:
    # Only what is an IP or CIDR by its shape; words are service tags, which the fake does not list.
    for rule in props.get("securityRules") or []:
        values = [rule.get("sourceAddressPrefix"), rule.get("destinationAddressPrefix")]
        values += list(rule.get("sourceAddressPrefixes") or []) + list(rule.get("destinationAddressPrefixes") or [])
        for value in values:
            if isinstance(value, str) and re.fullmatch(r"[0-9.:/a-fA-F]+", value) and re.search(r"[.:]", value):
                try:
                    ipaddress.ip_network(value, strict=True)
                except ValueError:
                    return f"Security rule has invalid Address prefix. Value provided: {value}"
    return None


def _static_ip(arm_find: Callable[[str], Any]) -> Check:
    def check(name: str, props: dict[str, Any]) -> str | None:
        for cfg in props.get("ipConfigurations") or []:
            address = cfg.get("privateIPAddress")
            subnet = arm_find(str(dig(cfg, "subnet", "id") or ""))
            if not isinstance(address, str) or subnet is None:
                continue
            for prefix in [subnet.properties.get("addressPrefix"), *(subnet.properties.get("addressPrefixes") or [])]:
                if not isinstance(prefix, str):
                    continue
                network = ipaddress.ip_network(prefix, strict=False)
                ip = ipaddress.ip_address(address)
                if ip.version != network.version:
                    continue
                if ip not in network:
                    return (
                        f"Private static IP address {address} does not belong to the range of subnet prefix {prefix}."
                    )
                offset = int(ip) - int(network.network_address)
                if offset < 4 or ip == network.broadcast_address:
                    return (
                        f"Private static IP address {address} falls within reserved IP range of subnet prefix {prefix}."
                    )
        return None

    return check


# --- AKS pools ------------------------------------------------------------------------------------------------

AKS = "Microsoft.ContainerService/managedClusters"
AKS_POOL = "Microsoft.ContainerService/managedClusters/agentPools"
# Pods per node, by network plugin: "between 10 and 250" for kubenet, Azure CNI and Azure CNI Overlay
# (https://learn.microsoft.com/azure/aks/concepts-network-ip-address-planning, maximum pods per node, observed
# 2026-11-26); a plugin not listed is not judged.
MAX_PODS = {"kubenet": (10, 250), "azure": (10, 250), None: (10, 250)}
TAINT = re.compile(
    r"^[A-Za-z0-9]([A-Za-z0-9._/-]*[A-Za-z0-9])?=[A-Za-z0-9._-]*:(NoSchedule|PreferNoSchedule|NoExecute)$"
)
WINDOWS_POOL_NAME_MAX: int = windows_max(AKS_POOL) or 0  # the name table (catalog/arm/name_rules.json)


def _pools(arm_type: str, props: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    if arm_type == AKS_POOL:
        return [(str(props.get("agentPoolName")), props)]
    return [(f"agentPoolProfiles[{i}]", p) for i, p in enumerate(props.get("agentPoolProfiles") or [])]


def _pool_rule(
    key: str, asks: str, source: str, check: Callable[[str, dict[str, Any], Any], str | None]
) -> list[ProseRule]:
    def run_for(arm_type: str) -> Check:
        def run(name: str, props: dict[str, Any]) -> str | None:
            plugin = dig(props, "networkProfile", "networkPlugin") if arm_type == AKS else None
            for where, pool in _pools(arm_type, props):
                message = check(where, pool, plugin)
                if message is not None:
                    return message
            return None

        return run

    return [ProseRule(f"{key}:{t}", t, asks, source, "InvalidParameter", run_for(t)) for t in (AKS, AKS_POOL)]


def _max_pods(where: str, pool: dict[str, Any], plugin: Any) -> str | None:
    pods = pool.get("maxPods")
    low, high = MAX_PODS.get(plugin, MAX_PODS[None])
    if isinstance(pods, (int, float)) and not low <= pods <= high:
        return f"{where}: maxPods {pods:g}; allowed with network plugin {plugin or 'default'}: {low} to {high}."
    return None


def _taints(where: str, pool: dict[str, Any], plugin: Any) -> str | None:
    for taint in pool.get("nodeTaints") or []:
        if isinstance(taint, str) and not TAINT.match(taint):
            return f"{where}: node taint '{taint}' is not key=value:Effect (NoSchedule, PreferNoSchedule, NoExecute)."
    return None


def _windows_pool_name(where: str, pool: dict[str, Any], plugin: Any) -> str | None:
    name = pool.get("name") or pool.get("agentPoolName")
    if pool.get("osType") == "Windows" and isinstance(name, str) and len(name) > WINDOWS_POOL_NAME_MAX:
        return f"{where}: Windows agent pool name '{name}' is longer than {WINDOWS_POOL_NAME_MAX} characters."
    return None


def _aks_rules() -> list[ProseRule]:
    return [
        *_pool_rule(
            "max-pods",
            "maxPods 10 to 250 (kubenet, Azure CNI, Azure CNI Overlay)",
            "https://learn.microsoft.com/azure/aks/concepts-network-ip-address-planning (observed 2026-11-26); "
            "code not public",
            _max_pods,
        ),
        *_pool_rule(
            "taints",
            "nodeTaints as key=value:Effect, Effect NoSchedule, PreferNoSchedule or NoExecute",
            "https://learn.microsoft.com/azure/aks/use-node-taints (observed 2026-11-26); code not public",
            _taints,
        ),
        *_pool_rule(
            "windows-pool-name",
            f"Windows pool names at most {WINDOWS_POOL_NAME_MAX} characters",
            "https://learn.microsoft.com/azure/aks/learn/quick-windows-container-deploy-cli (observed "
            "2026-11-26); code not public",
            _windows_pool_name,
        ),
    ]


BUDGET = "Microsoft.Consumption/budgets"
BUDGET_PERIOD = (
    "https://learn.microsoft.com/dotnet/api/azure.resourcemanager.consumption.consumptionbudgetdata.timeperiod "
    "('Future start date should not be more than twelve months.', observed 2026-11-26)"
)


def _budget_start_ahead(today: Any, props: dict[str, Any]) -> str | None:
    start = str(dig(props, "timePeriod", "startDate") or "")[:10]
    try:
        year, month = int(start[:4]), int(start[5:7])
    except ValueError:
        return None  # the type's own check answers a start that is not a date
    months_ahead = (year - today.year) * 12 + (month - today.month)
    if months_ahead > 12:
        return f"timePeriod.startDate {start} is {months_ahead} months ahead; a future start date is at most twelve."
    return None


# How far back a past start may be, by time grain: within the current grain period ("Past start date should be
# selected within the timegrain period", BUDGET_PERIOD), read leniently for the grains that are calendar periods (a
# quarter or a year counted from any month); a monthly budget may not start before the current month
# (hashicorp/terraform-provider-azurerm pull request 12121: "start_date for monthly time grain should not be prior to
# the current month", observed 2026-11-27). Billing-period grains are not judged: the billing period is not known here.
PAST_START_MONTHS = {"monthly": 1, "quarterly": 3, "annually": 12}


def _budget_start_past(today: Any, props: dict[str, Any]) -> str | None:
    start = str(dig(props, "timePeriod", "startDate") or "")[:10]
    window = PAST_START_MONTHS.get(str(props.get("timeGrain") or "").lower())
    try:
        year, month = int(start[:4]), int(start[5:7])
    except ValueError:
        return None  # the type's own check answers a start that is not a date
    months_back = (today.year - year) * 12 + (today.month - month)
    if window is not None and months_back >= window:
        return (
            f"timePeriod.startDate {start} is {months_back} months before {today:%Y-%m}; past start date should be "
            f"selected within the timegrain period ({props.get('timeGrain')}: at most {window - 1} months back)."
        )
    return None


def prose_refusals(arm: Any, arm_type: str, name: str, props: dict[str, Any]) -> list[ArmError]:
    """Azure's error for each prose rule `props` breaks, in the rules' order."""
    out = [coded(rule.code, message) for rule in rules_for(arm_type) if (message := rule.check(name, props))]
    if arm_type == BUDGET:
        message = _budget_start_ahead(arm.now.date(), props) or _budget_start_past(arm.now.date(), props)
        if message is not None:
            out.append(coded("InvalidParameter", message))
    if arm_type == NIC:
        message = _static_ip(arm.find)(name, props)
        if message is not None:
            code = "PrivateIPAddressNotInSubnet" if "does not belong" in message else "PrivateIPAddressInReservedRange"
            out.append(coded(code, message))
    return out


def rules_for(arm_type: str) -> list[ProseRule]:
    return [r for r in RULES if r.arm_type.lower() == arm_type.lower()]


COMMON_ERRORS = (
    "https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/common-deployment-errors "
    "(PrivateIPAddressInReservedRange: 'The specified IP address includes an address range required by Azure'; "
    "PrivateIPAddressNotInSubnet: 'The specified IP address is outside of the subnet range', observed 2026-11-27)"
)
RULES: tuple[ProseRule, ...] = (
    *_name_rules(),
    *_vm_rules(),
    *_aks_rules(),
    ProseRule(
        "dns-label",
        PIP,
        "dnsSettings.domainNameLabel matches ^[a-z][a-z0-9-]{1,61}[a-z0-9]$",
        "Azure's error 'InvalidDomainNameLabel: The domain name label ... must conform to the following regular "
        "expression: ^[a-z][a-z0-9-]{1,61}[a-z0-9]$', quoted in Microsoft's Ansible-on-Azure lab (MicrosoftDocs) and "
        "a public ARM deployment-error PowerShell module (code corpus, observed 2026-11-27)",
        "InvalidDomainNameLabel",
        _dns_label,
    ),
    ProseRule(
        "idle-timeout",
        PIP,
        "idleTimeoutInMinutes 4 to 30",
        "https://learn.microsoft.com/azure/virtual-network/ip-services/public-ip-addresses (idle timeout 4-30 "
        "minutes, observed 2026-11-26); code not public",
        "InvalidParameter",
        _idle_timeout,
    ),
    ProseRule(
        "standard-static",
        PIP,
        "Standard SKU is Static allocation only",
        "Azure's '(StandardAndStandardV2SkuPublicIPAddressesMustBeStatic) Standard sku publicIp ... must have "
        "AllocationMethod set to Static.', quoted from `az network public-ip create` in public lab notes (code "
        "corpus, observed 2026-11-27); "
        "https://learn.microsoft.com/azure/virtual-network/ip-services/public-ip-addresses (Standard SKU: static)",
        "StandardAndStandardV2SkuPublicIPAddressesMustBeStatic",
        _standard_static,
    ),
    ProseRule(
        "basic-retired",
        PIP,
        f"no new Basic SKU public IPs ({BASIC_PIP.what})",
        f"{BASIC_PIP.source} (retired, observed {BASIC_PIP.observed}); code '{BASIC_PIP_CODE}: {BASIC_PIP_MESSAGE}' "
        f"quoted in {BASIC_PIP.refusal_source}",
        BASIC_PIP_CODE,
        _basic_retired,
    ),
    *(
        ProseRule(
            "prefix-format",
            t,
            "address prefixes in CIDR notation, with a length (`10.0.0.0` is refused, not read as /32)",
            "Azure's 'InvalidAddressPrefixFormat: Address prefix 10.0.0.0/160 of resource ... is not formatted "
            "correctly. It should follow CIDR notation, for example 10.0.0.0/24.' "
            "(hashicorp/terraform-provider-azurerm test logs, and an az deployment validate walk-through with a "
            "prefix that is not CIDR; code corpus, observed 2026-11-27)",
            "InvalidAddressPrefixFormat",
            _prefix_format,
        )
        for t in (VNET, SUBNET)
    ),
    *(
        ProseRule(
            "prefix-host-bits",
            t,
            "address prefixes without host bits set (`10.10.10.0/16` is refused)",
            "Azure's 'InvalidCIDRNotation: The address prefix 10.10.10.0/16 ... should be 10.10.0.0/16', quoted from "
            "an `az deployment group create` run in public notes (code corpus, observed 2026-11-27)",
            "InvalidCIDRNotation",
            _prefix_host_bits,
        )
        for t in (VNET, SUBNET)
    ),
    ProseRule(
        "subnet-reference",
        NIC,
        "each ipConfigurations[].subnet.id, when given, is a subnet id (.../virtualNetworks/<network>/subnets/<name>)",
        SUBNET_REFERENCE,
        "InvalidRequestFormat",
        _subnet_reference,
    ),
    ProseRule(
        "port-range",
        NSG,
        "port ranges integers or ranges within 0-65535",
        "Azure's 'SecurityRuleInvalidPortRange: Security rule has invalid Port range ... Value should be an integer OR "
        "integer range with '-' delimiter' quoted in public deployment notes (code corpus, observed 2026-11-26)",
        "SecurityRuleInvalidPortRange",
        _port_range,
    ),
    ProseRule(
        "address-prefix",
        NSG,
        "IP address prefixes valid CIDR (no host bits set)",
        "Azure's 'SecurityRuleInvalidAddressPrefix: Security rule has invalid Address prefix. Value provided: "
        "20.20.20.20/16' quoted in public deployment notes (code corpus, observed 2026-11-26)",
        "SecurityRuleInvalidAddressPrefix",
        _address_prefix,
    ),
)
# The NIC's static-address rule reads the subnet from the subscription, so it runs apart from RULES' pure checks.
STATEFUL_RULES: tuple[SkippedRule, ...] = (
    SkippedRule(
        "static-ip",
        NIC,
        "a static privateIPAddress inside its subnet and not one of its first four or last address",
        COMMON_ERRORS,
        "enforced",
    ),
    SkippedRule(
        "budget-start-ahead",
        BUDGET,
        "a budget's start date at most twelve months ahead (of today's month)",
        BUDGET_PERIOD,
        "enforced",
    ),
    SkippedRule(
        "budget-start-past",
        BUDGET,
        "a past start date within the current time grain: a Monthly budget from this month on, Quarterly and "
        "Annually within the last 3 and 12 months (billing-period grains not judged)",
        f"{BUDGET_PERIOD}: 'Past start date should be selected within the timegrain period'; "
        "hashicorp/terraform-provider-azurerm pull request 12121 (observed 2026-11-27)",
        "enforced",
    ),
)
SKIPPED: tuple[SkippedRule, ...] = (
    *_skipped_names(),
    SkippedRule(
        "service-tags",
        NSG,
        "address prefixes that are words must be service tags",
        "https://learn.microsoft.com/azure/virtual-network/service-tags-overview",
        "the fake does not carry the list of service tags",
    ),
    SkippedRule(
        "basic-default-sku",
        PIP,
        "a public IP without sku on an API version whose default is Basic",
        "https://learn.microsoft.com/azure/virtual-network/ip-services/public-ip-basic-upgrade-guidance",
        "the default depends on the API version; only an explicit Basic is refused",
    ),
    SkippedRule(
        "computer-name-prefix",
        VMSS,
        "osProfile.computerNamePrefix (the instances' host names): 1-15 characters (Windows) / 1-64 (Linux)",
        "PSRule for Azure's Azure.VMSS.ComputerName (an awareness rule, https://azure.github.io/PSRule.Rules.Azure/en/"
        "rules/Azure.VMSS.ComputerName/, observed 2026-11-27)",
        "Azure appends each instance's suffix to the prefix, and neither Azure's limit on the prefix itself nor its "
        "refusal was found in a public source: not checked (a scale set's computer names are its instances')",
    ),
)
