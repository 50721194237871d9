"""Write tests/data/mutations/spec.json: for each rule the REST spec states of a modelled type, one single-rule
mutation of one of Azure's own PUT examples that breaks that rule and nothing else the rule states.

    python scripts/make_mutations.py            # rewrite the file
    python scripts/make_mutations.py --check    # exit 1 when the file is not what a run gives

The rules are read from catalog/arm/constraints.json (generated from the spec by scripts/read_specs.py) and the
examples from tests/data/azure-specs/*/examples.json (the spec's x-ms-examples); the broken value is made from the
constraint alone (a number one past its bound, a string one character too long, a string the pattern does not match
by Python's `re`, a list one item too long, a required property removed). The expected answer is the code the
rule's row of docs/azure-conformance.md names (InvalidParameter: the fake's answer to a value the spec does not
allow). The fake is used only to pick, per type, examples it accepts as they are (the controls), never to decide
what a mutation expects. tests/fakeazure/test_rule_mutations.py runs every mutation through the fake.

Where no example of Azure's reaches a rule: the objects its path needs are built onto an accepted example (with the
values HINTS gives where a type's own rule asks more than the spec requires), and a type none of whose examples is
accepted gets a body of our own made of the spec's required properties (OWN_BASES); each such body is kept only when
the fake accepts it unbroken. Every fake subscription here is given the day AS_OF, so rules that depend on today (a
budget's start date) answer the same on any day.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from azure_gpu_stacks.fakeazure.spec import provider_code  # noqa: E402

from scripts import rule_table  # noqa: E402

OUT = REPO / "tests" / "data" / "mutations" / "spec.json"
CONSTRAINTS = REPO / "catalog" / "arm" / "constraints.json"
SAVED = REPO / "tests" / "data" / "azure-specs"
_STEP = re.compile(r"\.?([^.\[{<]+)|(\[\*\])|(\{\*\})|<([^=>]+)=([^>]*)>")
# Strings tried, in order, for a value a pattern must refuse (kept only when the pattern does refuse it).
NOT_MATCHING = ("{value}!", "!{value}", "{head}!", "!{tail}", "{value} x", "#", "a b", "!", "-", "_", "")
# Body paths a program never sends itself, with why no body the SDK sends breaks them.
NOT_MUTATED = {
    "name": "the request's URL always carries a name (the program's resource name input; an empty one makes "
    "azure-native name the resource itself): what the row asks beyond its pattern and length, a name at all, no "
    "program breaks",
    "location": "azure-native fills a missing location from the resource group's; the value is checked against the "
    "regions the type is offered in",
    "properties": "azure-native builds the properties object from the resource's flattened inputs "
    "(x-ms-client-flatten) and sends it even when no input goes in it: a program cannot leave it out",
}


# Where a type's own path is left out for another reason than NOT_MUTATED's: (token, path) -> why.
NOT_MUTATED_HERE = {
    ("azure-native:resources:ResourceGroup", "location"): "azure-native fills a missing location from the provider's "
    "own (`azure-native:location`), as the fake does from its default location, which every fake here has; without "
    "one the fake answers 'location is required' (fakeazure/backend.py) before any body is checked; the value is "
    "checked against Azure's regions",
}


def _properties_is_an_input(token: str) -> bool:
    """Whether `properties` is an input of its own (a key vault's, a secret's), which a program may leave out, rather
    than the object azure-native builds from the resource's flattened inputs (catalog/arm/mapping.json's `lifted`)."""
    from azure_gpu_stacks.catalog.arm.bodies import arm_type

    found = arm_type(token)
    return found is not None and "lifted" not in found.body


# Spec rules whose breach a type's own, more specific rule answers first, with its code (fakeazure/model_rules.py):
# (token, body path) -> the code of that rule's row.
OVERLAPS: dict[tuple[str, str], str] = {
    # "Prometheus rule group '...' has no rules" / "needs scopes" / "has no expression": BadRequest rows
    ("azure-native:alertsmanagement:PrometheusRuleGroup", "properties.rules"): "BadRequest",
    ("azure-native:alertsmanagement:PrometheusRuleGroup", "properties.rules[*].expression"): "BadRequest",
    ("azure-native:alertsmanagement:PrometheusRuleGroup", "properties.scopes"): "BadRequest",
    # "Metric alert '...': evaluationFrequency / windowSize ... ISO 8601", "needs at least one scope", "severity"
    ("azure-native:monitor:MetricAlert", "properties.evaluationFrequency"): "BadRequest",
    ("azure-native:monitor:MetricAlert", "properties.scopes"): "BadRequest",
    ("azure-native:monitor:MetricAlert", "properties.severity"): "BadRequest",
    ("azure-native:monitor:MetricAlert", "properties.windowSize"): "BadRequest",
    # the types' own InvalidParameter / InvalidPropertyValue rows on the same value (roleDefinitionId and principalId,
    # a user-subscription Batch account's Key Vault, a pool's image and node agent, AKS pool names, a vault's sku,
    # an action group's short name)
    ("azure-native:authorization:RoleAssignment", "properties.principalId"): "InvalidPrincipalId",
    ("azure-native:authorization:RoleAssignment", "properties.roleDefinitionId"): "InvalidRoleDefinitionId",
    ("azure-native:batch:BatchAccount", "properties.keyVaultReference.id"): "InvalidParameter",
    (
        "azure-native:batch:Pool",
        "properties.deploymentConfiguration.virtualMachineConfiguration.imageReference",
    ): "InvalidPropertyValue",
    (
        "azure-native:batch:Pool",
        "properties.deploymentConfiguration.virtualMachineConfiguration.nodeAgentSkuId",
    ): "InvalidPropertyValue",
    ("azure-native:containerservice:ManagedCluster", "properties.agentPoolProfiles[*].name"): "InvalidParameter",
    ("azure-native:keyvault:Vault", "properties.sku.name"): "InvalidParameter",
    ("azure-native:monitor:ActionGroup", "properties.groupShortName"): "InvalidParameter",
    # "The autoscale setting '...' has 21 profiles; allowed: 1 to 20", "The autoscale profile ...: capacity.minimum
    # None; allowed: a whole number", "fixedDate.end None; allowed: an ISO 8601 date-time": the BadRequest rows
    **{
        ("azure-native:monitor:AutoscaleSetting", f"properties.profiles{tail}"): "BadRequest"
        for tail in (
            "",
            "[*].capacity",
            "[*].capacity.default",
            "[*].capacity.maximum",
            "[*].capacity.minimum",
            "[*].fixedDate.end",
            "[*].fixedDate.start",
            # "recurrence.frequency None; allowed: Week", "recurrence.schedule.days None; allowed: one or more of
            # Sunday, ...", "hours []; allowed: 0 to 23", "timeZone 'None' is not a Windows time zone id"
            "[*].recurrence.frequency",
            "[*].recurrence.schedule",
            "[*].recurrence.schedule.days",
            "[*].recurrence.schedule.hours",
            "[*].recurrence.schedule.minutes",
            "[*].recurrence.schedule.timeZone",
        )
    },
    # a name the spec's pattern or length refuses, answered first by the type's own or the name table's rule
    # (catalog/arm/name_rules.json), with its code: "The pool id '...' is invalid", "Resource name ... is invalid",
    # "The vault name '...' is invalid", "'...' is not a valid compute name", "... is not a valid storage account name"
    ("azure-native:batch:Pool", "name"): "InvalidPropertyValue",
    ("azure-native:containerservice:ManagedCluster", "name"): "InvalidResourceName",
    ("azure-native:keyvault:Vault", "name"): "VaultNameNotValid",
    ("azure-native:machinelearningservices:Compute", "name"): "InvalidParameter",
    ("azure-native:storage:StorageAccount", "name"): "AccountNameInvalid",
    # "Application Insights component '...' needs kind and applicationType", "Budget notification '...': threshold None;
    # allowed: 0 to 1000 percent", "Budget '...': timePeriod.startDate '' is not a date": the types' own rows
    ("azure-native:applicationinsights:Component", "properties.Application_Type"): "InvalidParameter",
    ("azure-native:consumption:Budget", "properties.notifications{*}.threshold"): "InvalidParameter",
    ("azure-native:consumption:Budget", "properties.timePeriod"): "InvalidParameter",
    ("azure-native:consumption:Budget", "properties.timePeriod.startDate"): "InvalidParameter",
    # "Security rule has invalid Priority. Value provided: 0": SecurityRuleInvalidPriority
    (
        "azure-native:network:NetworkSecurityGroup",
        "properties.securityRules[*].properties.priority",
    ): "SecurityRuleInvalidPriority",
}


# The spec's placeholder and canary regions (scripts/conformance.py's STALE), read as a real region in the bases.
PLACEHOLDER_REGIONS = ("location1", "eastus2euap")


# Examples that contradict their own spec, read as the spec allows (each is a stale row of
# docs/azure-conformance.md): (ARM type, title) -> [steps, value] set on the example's body.
REPAIRS: dict[tuple[str, str], list[tuple[list[Any], Any]]] = {
    # `days: ['1']`; the spec's RecurrentSchedule.days: 'Sunday through Saturday'
    ("microsoft.insights/autoscalesettings", "Create or update an autoscale setting"): [
        (["properties", "profiles", 1, "recurrence", "schedule", "days"], ["Monday"]),
    ],
    # a budget that started in 2017: Azure refuses a past start outside the current time grain (the stale row of
    # docs/azure-conformance.md), so its period is moved to the month of AS_OF, the day every fake here is given
    ("microsoft.consumption/budgets", "CreateOrUpdateBudget"): [
        (["properties", "timePeriod"], {"startDate": "2026-11-01T00:00:00Z", "endDate": "2027-10-31T00:00:00Z"}),
    ],
}

# The day every fake subscription of the corpus is given (FakeArm's `now`, as `gpu-stacks --as-of` gives it): a rule
# that depends on today (a budget's start date, a size's retirement) answers the same on any day the tests run.
AS_OF = dt.datetime(2026, 11, 27, tzinfo=dt.timezone.utc)

# Bodies of our own for a type none of whose spec examples the fake accepts (or that has none), each made of the
# spec's required properties alone (catalog/arm/constraints.json) with values its rules allow; each is a control: the
# fake must accept it as it is (tests/fakeazure/test_rule_mutations.py), or no mutation is built on it.
OWN_BASES: dict[str, list[dict[str, Any]]] = {
    # kind and properties.Application_Type are the spec's required properties (ApplicationInsightsComponent)
    "microsoft.insights/components": [
        {
            "title": "own: the spec's required properties",
            "body": {"kind": "web", "location": "eastus", "properties": {"Application_Type": "web"}},
        },
    ],
    # location is the spec's one required property (ProximityPlacementGroup); Azure's example asks for retired sizes
    "microsoft.compute/proximityplacementgroups": [
        {
            "title": "own: the spec's required properties",
            "body": {"location": "eastus", "properties": {"proximityPlacementGroupType": "Standard"}},
        },
    ],
}


def examples() -> dict[str, list[dict[str, Any]]]:
    """ARM type (lower case) -> Azure's PUT examples of it, a placeholder region read as eastus, an example that
    contradicts its spec repaired (REPAIRS), then our own bodies (OWN_BASES)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(SAVED.rglob("examples.json")):
        for example in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            body = example["body"]
            if str(body.get("location", "")).lower() in PLACEHOLDER_REGIONS:
                example = {**example, "body": {**body, "location": "eastus"}}
            for steps, value in REPAIRS.get((example["type"].lower(), example["title"]), []):
                example = {**example, "body": copy.deepcopy(example["body"])}
                place(example["body"], steps, value)
            found.setdefault(example["type"].lower(), []).append(example)
    for kind, bases in OWN_BASES.items():
        found.setdefault(kind, []).extend({"type": kind, **base} for base in bases)
    return found


def locate(body: Any, path: str, leaf_may_be_missing: bool = False) -> list[Any] | None:
    """The concrete steps (keys, indices) to the first place of `body` that `path` names, or None; with
    `leaf_may_be_missing`, the last key may be one the body's object does not have yet (a value to add)."""
    steps: list[Any] = []
    node = body
    parsed = _STEP.findall(path)
    for position, (key, items, values, disc, tag) in enumerate(parsed):
        if key:
            last = position == len(parsed) - 1
            if isinstance(node, dict) and key not in node and last and leaf_may_be_missing:
                steps.append(key)
                return steps
            if not isinstance(node, dict) or key not in node:
                return None
            steps.append(key)
            node = node[key]
        elif items:
            if not isinstance(node, list) or not node:
                return None
            steps.append(0)
            node = node[0]
        elif values:
            if not isinstance(node, dict) or not node:
                return None
            first = sorted(node)[0]
            steps.append(first)
            node = node[first]
        elif not isinstance(node, dict) or str(node.get(disc, "")).lower() != tag.lower():
            return None
    return steps


def _get(body: Any, steps: list[Any]) -> Any:
    for step in steps:
        body = body.get(step) if isinstance(body, dict) else body[step]
    return body


def _matches(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


def broken(key: str, rule: dict[str, Any], value: Any) -> tuple[str, Any] | None:
    """("set", a value breaking `rule[key]` only) or ("delete", None); None when none can be made."""
    low_len, high_len = rule.get("minLength", 0), rule.get("maxLength")
    if key == "required":
        return ("delete", None)
    if value is None and rule.get("type") == "string":
        value = ""  # a string to add where the example has none
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if key in ("minimum", "maximum") and (numeric or (value is None and rule.get("type") == "number")):
        bound = rule[key]
        return ("set", bound - 1 if key == "minimum" else bound + 1)
    if key == "maxLength" and isinstance(value, str):
        text = value or "a"
        return ("set", text + text[-1] * (rule[key] + 1 - len(text)))
    if key == "minLength" and isinstance(value, str) and rule[key] > 0:
        return ("set", value[: rule[key] - 1])
    if key == "pattern" and isinstance(value, str):
        try:
            re.compile(rule[key])
        except re.error:
            return None  # a .NET construct: the fake does not check it (the table says so)
        for form in NOT_MATCHING:
            text = form.format(value=value, head=value[:-1], tail=value[1:])
            fits = low_len <= len(text) <= (high_len if high_len is not None else len(text))
            if fits and not _matches(rule[key], text):
                return ("set", text)
        return None
    if key == "maxItems" and isinstance(value, list) and value:
        return ("set", value + [copy.deepcopy(value[-1])] * (rule[key] + 1 - len(value)))
    if key == "minItems" and isinstance(value, list) and rule[key] > 0:
        return ("set", value[: rule[key] - 1])
    return None


def _wrong_type(kind: str | None, value: Any) -> Any:
    """A value of another JSON type than `kind` that ARM's reader cannot turn into it."""
    wrong: dict[str, Any] = {
        "boolean": "yes",
        "number": "many",
        "array": "one",
        "object": "one",
        "string": {"a": "one"},
    }
    return wrong.get(str(kind), None)


def mutations(
    accepted: dict[str, list[str]], reach: Reach | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every single-rule mutation the spec's rules and Azure's examples give, on the accepted examples; with
    `reach`, a rule no accepted example has the path of is broken in a body built to reach it (the rules that no
    such body reaches come second, each with why)."""
    rows = {(r.arm_type, r.rule.split("`")[1]): r for r in rule_table.spec_rows() if "`" in r.rule}
    by_type = examples()
    out: list[dict[str, Any]] = []
    unreached: list[dict[str, Any]] = []
    for token, entry in sorted(json.loads(CONSTRAINTS.read_text(encoding="utf-8"))["types"].items()):
        bases = [e for e in by_type.get(entry["armType"].lower(), []) if e["title"] in accepted.get(token, [])]
        typed = False
        typed_tries: list[tuple[str, dict[str, Any]]] = []
        for path, rule in sorted(entry["paths"].items()):
            if rule.get("readOnly"):
                continue
            if path == "name" and bases:
                named = _name_mutations(token, entry, bases[0], rule, rows[(entry["armType"], path)])
                out += named
                if named:
                    continue
            if path in NOT_MUTATED and not (path == "properties" and _properties_is_an_input(token)):
                if reach is not None and any(key in rule for key in rule_table.VALUE_KEYS):
                    unreached.append(
                        _unreached(entry, path, {}, NOT_MUTATED_HERE.get((token, path), NOT_MUTATED[path]))
                    )
                continue
            for key in rule_table.VALUE_KEYS:
                if key not in rule:
                    continue
                if key == "pattern" and not rule_table._compiles(rule["pattern"]):
                    continue  # a .NET construct: the fake does not check it (the table says so)
                made = _first_mutation(bases, path, key, rule)
                built: list[list[Any]] = []
                if made is None and reach is not None:
                    reached = reach.build(token, entry["paths"], bases, path, key, rule)
                    if isinstance(reached, str):
                        unreached.append(_unreached(entry, path, {key: rule[key]}, reached))
                        continue
                    made, built = reached
                if made is not None:
                    example, steps, op, value = made
                    row = rows[(entry["armType"], path)]
                    out.append(_entry(token, entry, example, path, {key: rule[key]}, steps, op, value, row, built))
            if not typed and rule.get("type") in ("boolean", "number"):
                typed_tries.append((path, rule))
                for example in bases:
                    steps = locate(example["body"], path)
                    if steps is not None:
                        value = _wrong_type(rule["type"], _get(example["body"], steps))
                        out.append(_typed(token, entry, example, path, rule, steps, value, []))
                        typed = True
                        break
        why = "no path typed boolean or number"
        if not typed and reach is not None:
            for path, rule in typed_tries:
                reached = reach.build(token, entry["paths"], bases, path, "type", rule)
                if isinstance(reached, str):
                    why = reached
                    continue
                (example, steps, _, value), built = reached
                out.append(_typed(token, entry, example, path, rule, steps, value, built))
                typed = True
                break
        # a type with no boolean or number: a list or an object given as a string, else a string given as an object (a
        # string the example lacks added beside its siblings)
        for kinds, may_add in ((("array", "object"), False), (("string",), False), (("string",), True)):
            for path, rule in sorted(entry["paths"].items(), key=lambda item: item[0] == "location"):  # location last
                if typed or rule.get("readOnly") or path in ("name", "properties") or rule.get("type") not in kinds:
                    continue
                for example in bases:
                    steps = locate(example["body"], path, may_add)
                    if steps is not None:
                        value = _wrong_type(rule["type"], None)
                        out.append(_typed(token, entry, example, path, rule, steps, value, []))
                        typed = True
                        break
        if not typed and reach is not None:  # a string built onto an accepted example, given as an object
            strings = [(p, r) for p, r in sorted(entry["paths"].items()) if r.get("type") == "string"]
            for path, rule in strings:
                if rule.get("readOnly") or path in NOT_MUTATED:
                    continue
                reached = reach.build(token, entry["paths"], bases, path, "type", rule)
                if isinstance(reached, str):
                    why = reached
                    continue
                (example, steps, _, value), built = reached
                out.append(_typed(token, entry, example, path, rule, steps, value, built))
                typed = True
                break
        if not typed and reach is not None:
            unreached.append(_unreached(entry, "", {"type": "each path's JSON type"}, why))
    return out, unreached


# A name the conformance run gives every example (scripts/conformance.py `_inputs`), short so every type's name
# rules take it.
SENT_NAME = "ex001"


def _name_mutations(
    token: str, entry: dict[str, Any], example: dict[str, Any], rule: dict[str, Any], row: rule_table.Row
) -> list[dict[str, Any]]:
    """A resource name that breaks one of the spec's rules of `name` (pattern, length), sent as the resource's name
    input (the request's URL): the fake checks the spec's name rules there."""
    found = []
    good = SENT_NAME if _matches_all(rule, SENT_NAME) else _text(rule)
    for key in ("pattern", "minLength", "maxLength"):
        if key not in rule or (key == "pattern" and not rule_table._compiles(rule["pattern"])):
            continue
        made = broken(key, rule, good)
        if made is None or made[0] != "set" or made[1] == "":
            continue  # an empty name is no name: azure-native names the resource itself
        found.append(_entry(token, entry, example, "name", {key: rule[key]}, ["name"], "name", made[1], row))
    return found


def _matches_all(rule: dict[str, Any], text: str) -> bool:
    fits = rule.get("minLength", 0) <= len(text) <= rule.get("maxLength", len(text))
    return fits and ("pattern" not in rule or _matches(rule["pattern"], text))


def _typed(
    token: str,
    entry: dict[str, Any],
    example: dict[str, Any],
    path: str,
    rule: dict[str, Any],
    steps: list[Any],
    value: Any,
    built: list[list[Any]],
) -> dict[str, Any]:
    code = provider_code(entry["armType"])
    typed_row = rule_table.Row(entry["armType"], "spec", path, code, entry["source"])
    return _entry(token, entry, example, path, {"type": rule["type"]}, steps, "set", value, typed_row, built)


def _unreached(entry: dict[str, Any], path: str, rule: dict[str, Any], why: str) -> dict[str, Any]:
    return {"armType": entry["armType"], "rule": f"{path} {json.dumps(rule)}".strip(), "why": why}


def _first_mutation(
    bases: list[dict[str, Any]], path: str, key: str, rule: dict[str, Any]
) -> tuple[dict[str, Any], list[Any], str, Any] | None:
    # an example that has the value first, then one whose object can take it (never a required one removed
    # from an object the example does not send)
    for leaf_may_be_missing in (False, key != "required"):
        for example in bases:
            steps = locate(example["body"], path, leaf_may_be_missing)
            if steps is None:
                continue
            made = broken(key, rule, _get(example["body"], steps))
            if made is not None:
                return example, steps, made[0], made[1]
    return None


def _entry(
    token: str,
    entry: dict[str, Any],
    example: dict[str, Any],
    path: str,
    rule: dict[str, Any],
    steps: list[Any],
    op: str,
    value: Any,
    row: rule_table.Row,
    built: list[list[Any]] | None = None,
) -> dict[str, Any]:
    return {
        "token": token,
        "armType": entry["armType"],
        "example": example["title"],
        "rule": f"{path} {json.dumps(rule)}",
        "source": row.source,
        **({"built": built} if built else {}),
        "at": steps,
        "op": op,
        **({"value": value} if op in ("set", "name") else {}),
        "code": row.code if "type" in rule else OVERLAPS.get((token, path), row.code),
    }


# --- a body built to reach a rule no accepted example reaches --------------------------------------------------------

# Strings tried, in order, for a value a created object needs (the first its rule allows is taken).
PLAIN_TEXT = (
    "a",
    "abc",
    "example",
    "10.0.0.10",
    "10.0.0.0/16",
    "00000000-0000-0000-0000-000000000001",
    "https://example.com",
    "PT5M",
    "2026-12-01T00:00:00Z",
)
_KEY = re.compile(r"[^.\[{<]+")


def _text(rule: dict[str, Any]) -> str:
    low, high = rule.get("minLength", 0), rule.get("maxLength")
    for text in PLAIN_TEXT:
        if len(text) < low or (high is not None and len(text) > high):
            continue
        if "pattern" in rule and not (rule_table._compiles(rule["pattern"]) and _matches(rule["pattern"], text)):
            continue
        return text
    return "a" * max(low, 1)


def _required_children(paths: dict[str, Any], prefix: str) -> list[str]:
    """The keys the spec requires directly under `prefix` (a path of constraints.json)."""
    found = []
    for path, rule in paths.items():
        if path.startswith(prefix + ".") and rule.get("required") and not rule.get("readOnly"):
            key = path[len(prefix) + 1 :]
            if _KEY.fullmatch(key):
                found.append(key)
    return sorted(found)


def plain(paths: dict[str, Any], prefix: str, token: str = "") -> Any:
    """A value for `prefix` that its own rules allow: an object carries the children the spec requires (HINTS gives
    the value where another rule of the type's asks more)."""
    if (token, prefix) in HINTS:
        return copy.deepcopy(HINTS[(token, prefix)])
    for suffix, value in HINTS_ANYWHERE.items():
        if prefix.endswith(suffix):
            return copy.deepcopy(value)
    rule = paths.get(prefix, {})
    kind = rule.get("type")
    children = _required_children(paths, prefix)
    if kind == "array":
        return [plain(paths, prefix + "[*]", token) for _ in range(max(1, rule.get("minItems", 1)))]
    if kind == "string":
        return _text(rule)
    if kind == "number":
        low, high = rule.get("minimum"), rule.get("maximum")
        return low if low is not None else (min(1, high) if high is not None else 1)
    if kind == "boolean":
        return True
    if kind == "object" or children or any(p.startswith(prefix + ".") or p.startswith(prefix + "<") for p in paths):
        return {key: plain(paths, f"{prefix}.{key}", token) for key in children}
    if any(p.startswith(prefix + "{*}") for p in paths):
        return {}  # a map: `_construct` adds its first entry
    return "a"


# Values a built object takes where the type's own rules (fakeazure/model_rules.py) ask more than the spec requires, so
# that the control is accepted and the mutation breaks the spec's rule alone: (token, path) -> the value at that path
# (at a discriminated object, `path<tag=value>`, the children added beside the tag).
_AML = "properties<computeType=AmlCompute>.properties"
_SUBNET = (  # scripts/conformance.py's OTHER_SUBNET: a subnet of another subscription's
    "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/net/providers/"
    "Microsoft.Network/virtualNetworks/hub/subnets/default"
)
HINTS: dict[tuple[str, str], Any] = {
    # "Compute '...' needs properties.properties.scaleSettings.maxNodeCount"
    ("azure-native:machinelearningservices:Compute", _AML): {"scaleSettings": {"maxNodeCount": 1, "minNodeCount": 0}},
    # a subnet id, not 'a' ("'a' is not a resource id")
    ("azure-native:machinelearningservices:Compute", "properties<computeType=ComputeInstance>.properties.subnet"): {
        "id": _SUBNET
    },
    ("azure-native:machinelearningservices:Compute", f"{_AML}.subnet"): {"id": _SUBNET},
    # "recurrence.frequency 'None'; allowed: Week" (and a schedule of days, hours and minutes)
    ("azure-native:monitor:AutoscaleSetting", "properties.profiles[*].recurrence"): {
        "frequency": "Week",
        "schedule": {"timeZone": "UTC", "days": ["Monday"], "hours": [8], "minutes": [0]},
    },
    # a dimension's operator is Equals or NotEquals, not 'a'
    ("azure-native:monitor:AutoscaleSetting", "properties.profiles[*].rules[*].metricTrigger.dimensions[*]"): {
        "DimensionName": "VMName",
        "Operator": "Equals",
        "Values": ["vm0"],
    },
    # "criteria.allOf lists no criterion": one static criterion (the shape of the spec's own single-resource example)
    (
        "azure-native:monitor:MetricAlert",
        "properties.criteria<odata.type=Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria>",
    ): {
        "allOf": [
            {
                "criterionType": "StaticThresholdCriterion",
                "metricName": "Percentage CPU",
                "name": "High_CPU_80",
                "operator": "GreaterThan",
                "threshold": 80.5,
                "timeAggregation": "Average",
            }
        ]
    },
}

# The same, for a path of any type that ends so: a route with its next hop alone is an empty object once the next hop
# is removed (azure-native sends no empty object), so it names the address prefix it routes too.
HINTS_ANYWHERE: dict[str, Any] = {
    ".routeTable.properties.routes[*].properties": {"addressPrefix": "0.0.0.0/0", "nextHopType": "Internet"},
}


class Reach:
    """Builds, on top of an accepted example, the objects a rule's path needs (each with the children the spec
    requires, a discriminated one with its tag) and keeps the body only when the fake accepts it with a value the
    rule allows (the control): the mutation then breaks that rule alone. The fake decides only whether the control
    is a body it accepts, never what a mutation expects."""

    def __init__(self) -> None:
        self._arms: dict[str, Any] = {}
        self._index = 0

    def _accepts(self, token: str, title: str, body: dict[str, Any]) -> tuple[str, str]:
        arm = self._arms.get(token) or self._arms.setdefault(token, _arm_for(token))
        self._index += 1
        return put_body(arm, token, title, body, 5000 + self._index)

    def build(
        self,
        token: str,
        paths: dict[str, Any],
        bases: list[dict[str, Any]],
        path: str,
        key: str,
        rule: dict[str, Any],
    ) -> tuple[tuple[dict[str, Any], list[Any], str, Any], list[list[Any]]] | str:
        """((example, steps, op, value), built) or why no body reaches the rule."""
        if not bases:
            return "no example of the type that the fake accepts as it is, to build on"
        why = ""
        for example in bases[:3]:
            body = copy.deepcopy(example["body"])
            made = _construct(body, paths, path, token)
            if isinstance(made, str):
                why = why or made
                continue
            steps, built, parent = made
            leaf = steps[-1]
            if leaf not in parent:
                parent[leaf] = plain(paths, path, token)
                built.append([steps, parent[leaf]])
            _take_enums(token, body)
            built = [[where, _get(body, where)] for where, _ in built]
            control = parent[leaf]
            if key == "type":
                broke: tuple[str, Any] | None = ("set", _wrong_type(rule.get("type"), control))
            else:
                broke = broken(key, rule, control)
            if broke is None:
                why = why or f"no value of `{path}` breaks `{key}` alone"
                continue
            answer = self._accepts(token, example["title"], body)
            if answer != ("", ""):
                code, message = answer
                why = why or f"a body built to reach `{path}` is refused first: {code}: {message[:160]}"
                continue
            return (example, steps, broke[0], broke[1]), copy.deepcopy(built)
        return why


def _take_enums(token: str, body: dict[str, Any]) -> None:
    """Replaces each value of `body` that its SDK enum does not list (a plain value where the spec names no enum
    but the SDK does) with the enum's first value."""
    from azure_gpu_stacks.catalog.arm.bodies import from_arm_body
    from azure_gpu_stacks.fakeazure.enums import violations

    for _ in range(8):
        found = violations(token, from_arm_body(token, body))
        if not found:
            return
        for violation in found:
            for where, parent, key in _leaves(body, ""):
                # the SDK's path names no `properties` wrapper of the ARM body
                sdk_path = ".".join(part for part in where.split(".") if part != "properties")
                if sdk_path.endswith(violation.path) and parent[key] == violation.value:
                    parent[key] = violation.allowed[0]


def _leaves(node: Any, where: str) -> list[tuple[str, Any, Any]]:
    """(path as the SDK's enum check writes it, parent, key) of every string of `node`."""
    found: list[tuple[str, Any, Any]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
    for key, value in items:
        here = f"{where}[{key}]" if isinstance(key, int) else (f"{where}.{key}" if where else str(key))
        if isinstance(value, str):
            found.append((here, node, key))
        else:
            found.extend(_leaves(value, here))
    return found


def _construct(
    body: dict[str, Any], paths: dict[str, Any], path: str, token: str = ""
) -> tuple[list[Any], list[list[Any]], Any] | str:
    """Walks `path` into `body`, creating what is missing: (steps to the leaf, [steps, value] of each object
    created where the example had none, the leaf's parent object) or why it cannot."""
    steps: list[Any] = []
    built: list[list[Any]] = []
    created: set[int] = set()
    node: Any = body
    prefix = ""
    parsed = _STEP.findall(path)
    for position, (key, items, values, disc, tag) in enumerate(parsed):
        inside = id(node) in created
        if key:
            prefix = f"{prefix}.{key}" if prefix else key
            if not isinstance(node, dict):
                return f"`{prefix}` sits under a value that is not an object"
            steps.append(key)
            if position == len(parsed) - 1:
                return steps, built, node
            if key not in node:
                node[key] = plain(paths, prefix, token)
                created.add(id(node[key]))
                if not inside:
                    built.append([list(steps), node[key]])
            node = node[key]
        elif items:
            prefix += "[*]"
            if not isinstance(node, list):
                return f"`{prefix}` sits under a value that is not a list"
            if not node:
                node.append(plain(paths, prefix, token))
                if not inside:
                    built.append([[*steps, 0], node[0]])
            if id(node) in created:
                created.add(id(node[0]))
            steps.append(0)
            node = node[0]
        elif values:
            prefix += "{*}"
            if not isinstance(node, dict):
                return f"`{prefix}` sits under a value that is not an object"
            if not node:
                node["a"] = plain(paths, prefix, token)
                if not inside:
                    built.append([[*steps, "a"], node["a"]])
            first = sorted(node)[0]
            if id(node) in created:
                created.add(id(node[first]))
            steps.append(first)
            node = node[first]
        else:
            prefix += f"<{disc}={tag}>"
            if not isinstance(node, dict):
                return f"`{prefix}` sits under a value that is not an object"
            if str(node.get(disc, "")).lower() != tag.lower():
                if not inside:  # the example's object is another kind: it becomes one of this kind
                    node.clear()
                    created.add(id(node))
                    built.append([list(steps), node])
                node[disc] = tag
            for child in _required_children(paths, prefix):
                node.setdefault(child, plain(paths, f"{prefix}.{child}", token))
            for child, value in HINTS.get((token, prefix), {}).items():
                node.setdefault(child, copy.deepcopy(value))
    return "the path names no property"


# --- running bodies through the fake ------------------------------------------------------------------------------


def _arm_for(token: str) -> Any:
    """A fresh fake subscription with the resource group and the parents `token`'s examples need
    (scripts/conformance.py's PARENTS, each valid on its own)."""
    from azure_gpu_stacks.fakeazure import FakeArm

    from scripts import conformance

    arm = FakeArm(default_location="eastus", now=AS_OF)
    arm.put(
        "azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": conformance.RG, "location": "eastus"}, "rg"
    )
    for parent_token, name, props in conformance.PARENTS.get(token, []):
        inputs = {"resourceGroupName": conformance.RG, "location": "eastus", **props}
        arm.put(parent_token, name, inputs, name)
    return arm


def put_body(
    arm: Any, token: str, title: str, body: dict[str, Any], index: int, name: str | None = None
) -> tuple[str, str]:
    """(code, message) of the fake's answer to a PUT of `body` as azure-native inputs (named `name` when given);
    ("", "") when accepted."""
    from azure_gpu_stacks.fakeazure.errors import ArmError
    from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

    from scripts import conformance

    inputs = conformance._inputs(conformance.Example(token, title, body), index)
    if name is not None:
        inputs[RESOURCE_TYPES[token].name_input] = name
    try:
        arm.put(token, f"ex{index}", inputs, f"ex{index}")
    except ArmError as error:
        return error.code, error.message
    return "", ""


def accepted_examples() -> dict[str, list[str]]:
    """Per type token, the titles of Azure's examples the fake accepts as they are (the controls)."""
    from azure_gpu_stacks.catalog.arm.bodies import arm_type, tokens

    by_arm_type = {arm_type(t).arm_type.lower(): t for t in tokens()}  # type: ignore[union-attr]
    found: dict[str, list[str]] = {}
    for kind, batch in sorted(examples().items()):
        token = by_arm_type[kind]
        arm = _arm_for(token)
        for index, example in enumerate(batch):
            if put_body(arm, token, example["title"], example["body"], index) == ("", ""):
                found.setdefault(token, []).append(example["title"])
    return found


def place(body: Any, steps: list[Any], value: Any) -> None:
    """Sets `value` at `steps` of `body` (one past a list's end appends)."""
    *parents, last = steps
    node = _get(body, parents)
    if isinstance(node, list) and last == len(node):
        node.append(copy.deepcopy(value))
    else:
        node[last] = copy.deepcopy(value)


def run(found: list[dict[str, Any]], controls: bool = False) -> list[tuple[dict[str, Any], str, str]]:
    """Each mutation with the fake's (code, message), one fake subscription per type; with `controls`, the body
    each mutation breaks instead (its example with what `built` sets), which the fake must accept."""
    bodies = {(e["type"].lower(), e["title"]): e["body"] for batch in examples().values() for e in batch}
    out = []
    arms: dict[str, Any] = {}
    for index, mutation in enumerate(found):
        token = mutation["token"]
        arm = arms.get(token) or arms.setdefault(token, _arm_for(token))
        body = copy.deepcopy(bodies[(mutation["armType"].lower(), mutation["example"])])
        for steps, value in mutation.get("built", []):
            place(body, steps, value)
        *parents, last = mutation["at"]
        node = _get(body, parents)
        name = None
        if controls:
            pass
        elif mutation["op"] == "name":
            name = mutation["value"]
        elif mutation["op"] == "delete":
            del node[last]
        else:
            node[last] = mutation["value"]
        out.append((mutation, *put_body(arm, token, mutation["example"], body, 1000 + index, name)))
    return out


NOTE = (
    "generated by scripts/make_mutations.py; never edit by hand. A mutation with `built` sets each [steps, value] on "
    "its example first (objects the example lacks, built to reach the rule; the fake accepts that body as it is); "
    "`asOf` is the day every fake subscription is given (a rule that depends on today answers the same on any day); "
    "`unreached` lists the rules no body reaches, each with why"
)


def text() -> str:
    found, unreached = mutations(accepted_examples(), Reach())
    corpus = {"note": NOTE, "asOf": AS_OF.date().isoformat(), "mutations": found, "unreached": unreached}
    return json.dumps(corpus, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when the file is out of date")
    args = parser.parse_args(argv)
    new = text()
    old = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
    if old == new:
        print(f"{OUT.relative_to(REPO)}: up to date")
        return 0
    if args.check:
        print(f"{OUT.relative_to(REPO)}: out of date; run python scripts/make_mutations.py")
        return 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(new, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


# --- the types' own checks (tests/data/mutations/model.json, written by hand) ---------------------------------------

MODEL_CORPUS = REPO / "tests" / "data" / "mutations" / "model.json"


def _steps(path: str) -> list[Any]:
    return [int(step) if step.isdigit() else step for step in path.split(".")]


def _resolved(value: Any, arm: Any, group: str) -> Any:
    """A corpus value as sent: `{group}` in a string is the fake subscription's resource group id, {"$monthStart": k,
    "day": d} the date-time of day d of the month k months from the fake's today, {"$deployer": true} the deployer's
    object id (the fake's own, never written in the corpus)."""
    if isinstance(value, str):
        return value.replace("{group}", group)
    if isinstance(value, list):
        return [_resolved(v, arm, group) for v in value]
    if isinstance(value, dict) and "$monthStart" in value:
        today = arm.now.date()
        month = today.month - 1 + value["$monthStart"]
        return f"{today.year + month // 12:04d}-{month % 12 + 1:02d}-{value.get('day', 1):02d}T00:00:00Z"
    if isinstance(value, dict) and value.get("$deployer"):
        from azure_gpu_stacks.fakeazure.models.authorization import deployer_object_id

        return deployer_object_id(arm)
    if isinstance(value, dict):
        return {k: _resolved(v, arm, group) for k, v in value.items()}
    return value


def model_body(
    mutation: dict[str, Any], bodies: dict[tuple[str, str], dict[str, Any]], arm: Any, group: str
) -> dict[str, Any]:
    """The body a model-rule mutation sends: its example of Azure's (or its own `body`) with each `set` placed and
    each `delete` gone."""
    if "body" in mutation:
        body = _resolved(copy.deepcopy(mutation["body"]), arm, group)
    else:
        body = copy.deepcopy(bodies[(mutation["armType"].lower(), mutation["example"])])
    for path, value in mutation.get("set", []):
        steps = _steps(path)
        node = body
        for step in steps[:-1]:
            node = node[step] if isinstance(node, list) else node.setdefault(step, {})
        place(body, steps, _resolved(value, arm, group))
    for path in mutation.get("delete", []):
        *parents, last = _steps(path)
        del _get(body, parents)[last]
    return body


def run_model(found: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str]]:
    """Each model-rule mutation with the fake's (code, message), in a fake subscription with its type's parents
    (scripts/conformance.py's PARENTS) and those of `parentsOf`, then each of its own `parents` [token, name, inputs];
    `name` is the resource name it sends, `inputs` what it sends beyond its body (a parent's name)."""
    from azure_gpu_stacks.fakeazure import FAKE_SUBSCRIPTION_ID
    from azure_gpu_stacks.fakeazure.errors import ArmError
    from azure_gpu_stacks.fakeazure.models import RESOURCE_TYPES

    from scripts import conformance

    group = f"/subscriptions/{FAKE_SUBSCRIPTION_ID}/resourceGroups/{conformance.RG}"
    bodies = {(e["type"].lower(), e["title"]): e["body"] for batch in examples().values() for e in batch}
    out = []
    arms: dict[str, Any] = {}  # one fake subscription per type and parents (every name a mutation sends is its own)
    for index, mutation in enumerate(found):
        token = mutation["token"]
        setup = json.dumps([token, mutation.get("parentsOf"), mutation.get("parents")], sort_keys=True)
        arm = arms.get(setup)
        if arm is None:
            arm = arms[setup] = _arm_for(token)
            for parent_token, name, props in conformance.PARENTS.get(mutation.get("parentsOf", ""), []):
                arm.put(parent_token, name, {"resourceGroupName": conformance.RG, "location": "eastus", **props}, name)
            for parent_token, name, props in mutation.get("parents", []):
                inputs = {"resourceGroupName": conformance.RG, "location": "eastus", **_resolved(props, arm, group)}
                arm.put(parent_token, name, inputs, name)
        title = mutation.get("example", "own body")
        body = model_body(mutation, bodies, arm, group)
        inputs = conformance._inputs(conformance.Example(token, title, body), 2000 + index)
        if mutation.get("name"):
            inputs[RESOURCE_TYPES[token].name_input] = mutation["name"]
        inputs.update(_resolved(mutation.get("inputs", {}), arm, group))
        try:
            arm.put(token, f"model{index}", inputs, f"model{index}")
        except ArmError as error:
            out.append((mutation, error.code, error.message))
            continue
        out.append((mutation, "", ""))
    return out
