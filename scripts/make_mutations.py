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
"""

from __future__ import annotations

import argparse
import copy
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
# Body paths a program never sends itself: the URL carries the name, azure-native defaults the location.
NOT_MUTATED = ("name", "location", "properties")


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
    # "Security rule has invalid Priority. Value provided: 0": SecurityRuleInvalidPriority
    (
        "azure-native:network:NetworkSecurityGroup",
        "properties.securityRules[*].properties.priority",
    ): "SecurityRuleInvalidPriority",
}


# The spec's placeholder and canary regions (scripts/conformance.py's STALE), read as a real region in the bases.
PLACEHOLDER_REGIONS = ("location1", "eastus2euap")


def examples() -> dict[str, list[dict[str, Any]]]:
    """ARM type (lower case) -> Azure's PUT examples of it, a placeholder region read as eastus."""
    found: dict[str, list[dict[str, Any]]] = {}
    for path in sorted(SAVED.rglob("examples.json")):
        for example in json.loads(path.read_text(encoding="utf-8"))["examples"]:
            body = example["body"]
            if str(body.get("location", "")).lower() in PLACEHOLDER_REGIONS:
                example = {**example, "body": {**body, "location": "eastus"}}
            found.setdefault(example["type"].lower(), []).append(example)
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
    return {"boolean": "yes", "number": "many", "array": "one", "object": "one"}.get(str(kind), None)


def mutations(accepted: dict[str, list[str]]) -> list[dict[str, Any]]:
    """Every single-rule mutation the spec's rules and Azure's examples give, on the accepted examples."""
    rows = {(r.arm_type, r.rule.split("`")[1]): r for r in rule_table.spec_rows() if "`" in r.rule}
    by_type = examples()
    out: list[dict[str, Any]] = []
    for token, entry in sorted(json.loads(CONSTRAINTS.read_text(encoding="utf-8"))["types"].items()):
        bases = [e for e in by_type.get(entry["armType"].lower(), []) if e["title"] in accepted.get(token, [])]
        typed = False
        for path, rule in sorted(entry["paths"].items()):
            if rule.get("readOnly") or path in NOT_MUTATED:
                continue
            for key in rule_table.VALUE_KEYS:
                if key not in rule:
                    continue
                made = _first_mutation(bases, path, key, rule)
                if made is not None:
                    example, steps, op, value = made
                    out.append(
                        _entry(
                            token,
                            entry,
                            example,
                            path,
                            {key: rule[key]},
                            steps,
                            op,
                            value,
                            rows[(entry["armType"], path)],
                        )
                    )
            if not typed and rule.get("type") in ("boolean", "number"):
                for example in bases:
                    steps = locate(example["body"], path)
                    if steps is not None:
                        value = _wrong_type(rule["type"], _get(example["body"], steps))
                        code = provider_code(entry["armType"])
                        typed_row = rule_table.Row(entry["armType"], "spec", path, code, entry["source"])
                        out.append(
                            _entry(token, entry, example, path, {"type": rule["type"]}, steps, "set", value, typed_row)
                        )
                        typed = True
                        break
    return out


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
) -> dict[str, Any]:
    return {
        "token": token,
        "armType": entry["armType"],
        "example": example["title"],
        "rule": f"{path} {json.dumps(rule)}",
        "source": row.source,
        "at": steps,
        "op": op,
        **({"value": value} if op == "set" else {}),
        "code": row.code if "type" in rule else OVERLAPS.get((token, path), row.code),
    }


# --- running bodies through the fake ------------------------------------------------------------------------------


def _arm_for(token: str) -> Any:
    """A fresh fake subscription with the resource group and the parents `token`'s examples need
    (scripts/conformance.py's PARENTS, each valid on its own)."""
    from azure_gpu_stacks.fakeazure import FakeArm

    from scripts import conformance

    arm = FakeArm(default_location="eastus")
    arm.put(
        "azure-native:resources:ResourceGroup", "rg", {"resourceGroupName": conformance.RG, "location": "eastus"}, "rg"
    )
    for parent_token, name, props in conformance.PARENTS.get(token, []):
        inputs = {"resourceGroupName": conformance.RG, "location": "eastus", **props}
        arm.put(parent_token, name, inputs, name)
    return arm


def put_body(arm: Any, token: str, title: str, body: dict[str, Any], index: int) -> tuple[str, str]:
    """(code, message) of the fake's answer to a PUT of `body` as azure-native inputs; ("", "") when accepted."""
    from azure_gpu_stacks.fakeazure.errors import ArmError

    from scripts import conformance

    inputs = conformance._inputs(conformance.Example(token, title, body), index)
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


def run(found: list[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str]]:
    """Each mutation with the fake's (code, message), one fake subscription per type."""
    bodies = {(e["type"].lower(), e["title"]): e["body"] for batch in examples().values() for e in batch}
    out = []
    arms: dict[str, Any] = {}
    for index, mutation in enumerate(found):
        token = mutation["token"]
        arm = arms.get(token) or arms.setdefault(token, _arm_for(token))
        body = copy.deepcopy(bodies[(mutation["armType"].lower(), mutation["example"])])
        *parents, last = mutation["at"]
        node = _get(body, parents)
        if mutation["op"] == "delete":
            del node[last]
        else:
            node[last] = mutation["value"]
        out.append((mutation, *put_body(arm, token, mutation["example"], body, 1000 + index)))
    return out


def text() -> str:
    found = mutations(accepted_examples())
    return (
        json.dumps({"note": "generated by scripts/make_mutations.py; never edit by hand", "mutations": found}, indent=1)
        + "\n"
    )


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
