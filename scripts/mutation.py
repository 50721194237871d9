"""`make mutation`: mutation testing (mutmut 3) of the rules whose tests must bite.

Each target is a set of modules and only the test files that exercise them, so that one run fits in
minutes on two cores. mutmut copies the code into `mutants/` and names each mutant after the module
path of its file; our modules are installed as `azure_gpu_stacks.<room>` from the repository's room
folders (pyproject's package-dir), which mutmut cannot see from the tree. So each target runs in a
staging folder, `$TMPDIR/azure-gpu-stacks-mutation/<target>/` (MUTATION_DIR), where the rooms sit
under a real `azure_gpu_stacks/` folder (the repository root is that package: see `__init__.py`), the
tests are copied beside it, and every other top-level entry of the repository is linked in, so tests
that read `stacks/` or `data/` find them.

    .venv/bin/python scripts/mutation.py                 # every target
    .venv/bin/python scripts/mutation.py verdict pricing # some
    .venv/bin/python scripts/mutation.py policies --keep --max-children 1 --mutants '*.nsg_rules.*'  # a chunk
    .venv/bin/python scripts/mutation.py policies --screen policies/ --mutants '*.nsg_rules.*'  # a screen

`--keep` reuses the target's staging folder (mutmut's `mutants/`: its test map and every result so far):
the rooms and tests are copied in again, mutmut re-runs the mutants of functions whose code changed and
maps new tests, and chunk after chunk adds to one score. `--mutants` runs only the mutants whose names
match (shell-style globs, `azure_gpu_stacks.` may be left off) and that no test has killed yet, less
those judged equivalent (recorded, not run); the others keep their last result. `--screen TEST...` runs
a chunk against only those test files (or a folder's own, the pack-wide policy tests left out), in a folder of
its own: a quick list of what they do not kill, not a score.

Prints killed / survived / equivalent per module and the surviving mutants' diffs, and writes
`<target>.json` there. docs/mutation.md holds the last score and the equivalent mutants' reasons.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# Outside the checkout: tests that read every file of the repository (test_sdk_internals, test_layout)
# must not find the staged copies. MUTATION_DIR moves it.
STAGING = Path(os.environ.get("MUTATION_DIR") or Path(tempfile.gettempdir()) / "azure-gpu-stacks-mutation")
ROOMS = ("catalog", "components", "engine", "fakeazure", "inputs", "policies", "sdk", "stack")


# target -> (modules to mutate, test files by name: found anywhere under tests/, so that moving a
# test file into tests/<room>/ does not break the target; a name ending in / is a folder)
TARGETS: dict[str, tuple[list[str], list[str]]] = {
    "verdict": (
        ["catalog/verdict.py"],
        ["test_size_verdict.py", "test_retired_cpu_sizes.py"],
    ),
    "pricing": (
        ["catalog/pricing.py"],
        [
            "test_budget_thresholds.py",
            "test_cost_alert.py",
            "test_cost_guardrail.py",
            "test_price_provenance.py",
            "test_warn_incoherent_budgets.py",
            "test_limit_stack_cost.py",
            "test_plan_types.py",
            "test_cost.py",
            "test_cost_not_counted.py",
            "test_cost_lines.py",
            # the charges, commitments and disks priced beside the totals (estimate, estimate_resources)
            "test_charge_prices.py",
            "test_commitments.py",
            "test_prometheus_charge.py",
            "test_regional_disk_prices.py",
            "test_reservations.py",
            "test_scale_set_disks.py",
            "test_usage_charges.py",
        ],
    ),
    "policies": (
        ["policies/*.py"],
        # test_cost_guardrail: limit-stack-cost's increase_problems is `gpu-stacks diff`'s guardrail
        ["policies/", "test_policy_config.py", "test_policy_properties.py", "test_cost_guardrail.py"],
    ),
    "fakeazure-models": (
        ["fakeazure/models/*.py"],
        # the folder, not a list of files: a test file added there keeps mutmut's results (a list that changes
        # makes it forget them), and every test of the fake's own room is one hop from its models
        ["fakeazure/"],
    ),
}

# Tests that check where a file lies in the checkout, which staging moves (the package's docs/ is a link
# there): they say nothing about a rule.
DESELECT = ["tests/policies/pack/test_policy_docs.py::test_dated_lines_are_what_the_catalog_renders_on_their_day"]

# What a screen never runs: the pack-wide policy tests (about 110 s for each surviving mutant). A screen of a folder
# (`--screen policies/`) is every own test file in it, and stays one selection as test files are added there, so
# mutmut keeps the screen's results (a list of files would change, and mutmut forgets every result when it does).
SCREEN_IGNORE = ["tests/policies/pack"]

# Modules under a target's folders that hold no rule: the policy pack's entry point and the generator of
# docs/policies.md (whose freshness test_policy_docs checks, not its behaviour).
NOT_RULES = ["policies/__main__.py", "policies/docs.py"]

# Mutants that change no behaviour a caller can observe, by mutmut's name, with the reason. They are
# counted as equivalent rather than survived; docs/mutation.md lists them.
# (mutmut numbers a function's mutants in order: a change to the function renumbers them, and the names
# below are then checked again by hand.)
_PAYG_ALWAYS = (
    "the catalog writes a pay-as-you-go price for every region it prices (test_every_priced_region_has_a_pay_as_you_go"
    "_price), so a missing price is a missing region or a missing Spot price: the pay-as-you-go wording is never "
    "reached"
)
_NO_SIZES_PASSED = (
    "no caller passes `sizes` to estimate_resources (plan.py, warn-incoherent-budgets and limit-stack-cost use the "
    "catalog, its default): dropping it changes nothing a caller sees"
)
_NONE_COUNTED = (
    "a budget is judged only over at least one VM (warn-incoherent-budgets returns no problem when the budget covers "
    "none), so the basis never says that no resource was counted"
)
_ALL_DEPENDENCIES = (
    "`dependencies_of(schedule, prop)` is the dependencies of `prop` followed by every dependency of the resource, "
    "which the engine gives a stack policy as a superset of each property's: `any(...)` over them is the same "
    "whichever property is named, or none"
)
_EVERY_DEPENDENCY_HAS_A_URN = (
    "every dependency the engine gives a stack policy is a resource with a `urn`, so getattr's default is never used"
)
_NO_ACCOUNT_NAME = (
    "`accountName` is required on a pool (a path parameter of Pool's REST operations), so it is missing only when "
    "unknown before deployment; then '' and the mutant's 'xxxx' both match no account by name (unless one is "
    "literally named xxxx) and the pool falls back to the stack's only account"
)
EQUIVALENT: dict[str, str] = {
    "azure_gpu_stacks.policies.batch_accounts.x_account_of__mutmut_15": _NO_ACCOUNT_NAME,
    "azure_gpu_stacks.policies.require_gpu_vm_auto_shutdown.x__targets__mutmut_6": _EVERY_DEPENDENCY_HAS_A_URN,
    **{
        f"azure_gpu_stacks.policies.require_gpu_vm_auto_shutdown.x__targets__mutmut_{n}": _ALL_DEPENDENCIES
        for n in (11, 14, 15, 16)
    },
    **{
        f"azure_gpu_stacks.policies.stack_resources.x_resource_inputs__mutmut_{n}": _EVERY_DEPENDENCY_HAS_A_URN
        for n in (6, 9, 12)
    },
    "azure_gpu_stacks.policies.warn_aml_public_access.x_validate__mutmut_17": (
        "a missing publicNetworkAccess read as `xxxx` rather than '': neither is `disabled`"
    ),
    "azure_gpu_stacks.policies.warn_gpu_host_without_identity.x_validate__mutmut_30": (
        "`NONE` for `none` as a missing identity type's stand-in: it is lower-cased before it is compared"
    ),
    **{
        f"azure_gpu_stacks.policies.vm_size_locations.x_vm_sizes__mutmut_{n}": (
            "an unknown size's path or billing dropped: classify, vm_sizes' only caller, skips a size that is None "
            "before it reads either"
        )
        for n in (22, 23)
    },
    "azure_gpu_stacks.policies.disallow_batch_low_priority_nodes.x_validate__mutmut_51": (
        "`and` for `or` over an unknown fixed target and an unknown formula: a pool's scaleSettings holds fixedScale "
        "or autoScale, never both (Learn, @azure/arm-batch ScaleSettings: 'mutually exclusive', observed "
        "2026-11-27), so one of the two is absent, not unknown"
    ),
    **{
        f"azure_gpu_stacks.policies.warn_gpu_host_without_encryption_at_host.x_validate__mutmut_{n}": (
            "every size classify skips as not billed (a proximity placement group's intent, an image template's "
            "build VM) is of a type with no encryption-at-host setting, which setting_path answers None for"
        )
        for n in (3, 6, 7)
    },
    "azure_gpu_stacks.policies.config.x__fits__mutmut_49": (
        "`type == 'array' or` a list for `and`: a list reaches that line only for an array property (or one of no type "
        "the table knows), and every property of the pack that has `items` is an array (disallow-internet-ssh-rdp's "
        "ports, require-cost-alerts' lists)"
    ),
    "azure_gpu_stacks.policies.limit_stack_cost.x_increase_problems__mutmut_24": (
        "`increase >= 0` for `increase > 0` before the percent limit: with no increase the percentage is 0, which "
        "is never above a limit that is on (the schema's minimum is 0, and 0 turns it off)"
    ),
    **{
        f"azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_{n}": (
            "a device plugin's MIG_STRATEGY 'none' kept rather than read as no strategy: the MIG check then asks "
            "whether the strategy is single or mixed, and 'none' is neither"
        )
        for n in (101, 103, 104)
    },
    **{
        f"azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__tolerates__mutmut_{n}": (
            "a taint split at its first ':' or last '=' rather than its last ':' and first '=': Kubernetes' taint "
            "keys and values (label syntax: [-._a-zA-Z0-9] and a DNS prefix with '/') hold neither character, so "
            "there is one of each"
        )
        for n in (3, 7)
    },
    **{
        f"azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__tolerates__mutmut_{n}": (
            "a toleration without an operator defaults to a spelling of Equal other than 'Equal': the matching only "
            "asks whether the operator is Exists, so any other default reads as Equal"
        )
        for n in (28, 29, 30)
    },
    **{
        f"azure_gpu_stacks.policies.aks_gpu_driver_ownership.x_{function}__mutmut_{n}": (
            "`getattr(resource, 'parent')` without its default None: every resource a stack policy is given has a "
            "`parent` attribute (pulumi_policy's PolicyResource sets it, None for a child of the stack)"
        )
        for function, n in (("_pool", 58), ("_advertisers", 13))
    },
    "azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_83": (
        "a device plugin's `operator=None` for `False`: `operator` is only read for its truth (`if a.operator`)"
    ),
    "azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_119": (
        "a chart reference stripped of trailing 'X' as well as '/': Helm chart names are lower-case letters, "
        "numbers and dashes (helm.sh, Chart Best Practices, General Conventions, observed 2026-11-27), so no chart "
        "named ...gpu-operator ends with an upper-case X"
    ),
    "azure_gpu_stacks.policies.warn_always_on_infiniband_cluster.x__targets__mutmut_6": _EVERY_DEPENDENCY_HAS_A_URN,
    **{
        f"azure_gpu_stacks.policies.warn_always_on_infiniband_cluster.x__targets__mutmut_{n}": _ALL_DEPENDENCIES
        for n in (11, 14, 15, 16)
    },
    "azure_gpu_stacks.policies.warn_always_on_infiniband_cluster.x__targets__mutmut_46": (
        "an autoscale setting without targetResourceUri read as 'xxxx' rather than '': neither ends with "
        "/virtualmachinescalesets/<name>"
    ),
    "azure_gpu_stacks.policies.values.x_text__mutmut_5": (
        "`is_unknown(None)` for `is_unknown(value)` in text(): `_plain` has already turned every unknown into "
        "UNKNOWN, which is no str, so the check after `isinstance(value, str)` is never what decides"
    ),
    "azure_gpu_stacks.policies.values.x_get__mutmut_6": (
        "get() without its early return: a step from None gives None and a step from UNKNOWN gives UNKNOWN "
        "(child), so walking on to the end answers the same"
    ),
    "azure_gpu_stacks.policies.require_batch_gpu_scale_to_zero.x__idle_cost__mutmut_6": (
        "a price looked up for region None rather than not looked up: the catalog keys prices by region name, "
        "so `prices.get(None)` finds none either way"
    ),
    **{
        f"azure_gpu_stacks.policies.require_batch_gpu_scale_to_zero.x__idle_cost__mutmut_{n}": (
            "zip() without strict=True: the prices are made from `kept` one for one, so the lengths always match"
        )
        for n in (22, 25, 26)
    },
    "azure_gpu_stacks.policies.nsg_rules.x__strings__mutmut_10": (
        "`and` for `or` when one of a single/plural pair (sourceAddressPrefix/sourceAddressPrefixes...) is unknown: "
        "a rule gives one of the pair (Azure/azure-rest-api-specs#1591, the product team's answer: one or the "
        "other), and with the other absent the mutant reads no value from the unknown one, so it admits no "
        "source and opens no port, as the None it replaces does"
    ),
    "azure_gpu_stacks.policies.warn_incoherent_budgets.x_validate__mutmut_98": (
        "a central budget without a scope handed to scope_coverage rather than skipped: scope_coverage of no "
        "scope is None, which is skipped the same way"
    ),
    "azure_gpu_stacks.policies.resource_groups.x__dependency_group__mutmut_10": (
        "`getattr(dep, 'resource_type')` without its default: every dependency a stack policy is given is a "
        "PolicyResource, which has a resource_type"
    ),
    **{
        f"azure_gpu_stacks.policies.resource_groups.x_dependencies_of__mutmut_{n}": (
            "getattr without its default, or `isinstance(..., dict) or True`: pulumi_policy's PolicyResource always "
            "has `dependencies` and `property_dependencies`, the latter a dict"
        )
        for n in (7, 12, 23)
    },
    "azure_gpu_stacks.policies.warn_gpu_driver_by_script.x__base64_text__mutmut_5": (
        "`>=` for `>` at the 1 MiB read bound: customData and userData are at most 64 KiB (Learn, 'Custom data and "
        "cloud-init on Azure Virtual Machines' and 'User data for Azure Virtual Machine', observed 2026-11-27), "
        "so no value Azure takes is near it"
    ),
    "azure_gpu_stacks.policies.warn_gpu_driver_by_script.x__base64_text__mutmut_16": (
        "'UTF-8' for 'utf-8': Python's codec names are case-insensitive"
    ),
    "azure_gpu_stacks.policies.require_gpu_vm_auto_shutdown.x__targets__mutmut_48": (
        "a schedule without targetResourceId read as 'XXXX' rather than '': neither ends with /virtualmachines/<name>"
    ),
    "azure_gpu_stacks.policies.require_gpu_vm_auto_shutdown.x__targets__mutmut_59": (
        "a schedule without a name read as 'XXXX' rather than '': neither is shutdown-computevm-<name>"
    ),
    "azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_52": (
        "a container without an image read as 'XXXX' rather than '': neither contains k8s-device-plugin"
    ),
    "azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_118": (
        "a Helm release without a chart read as 'XXXX' rather than '': neither ends with gpu-operator"
    ),
    "azure_gpu_stacks.policies.aks_gpu_driver_ownership.x__advertisers__mutmut_222": (
        "devicePlugin.enabled's default None rather than the chart's True: the value is compared `is not False`, "
        "which both pass"
    ),
    "azure_gpu_stacks.policies.warn_public_aks_api_server.x__every_address__mutmut_2": (
        "`strict=None` for `strict=False` in ipaddress.ip_network: the standard library tests `if strict:`, so "
        "None and False both accept host bits"
    ),
    "azure_gpu_stacks.fakeazure.models.compute.xǁVirtualMachineExtensionǁcheck__mutmut_46": (
        "`arm.find('XXXX')` for `arm.find('')` when a VM's network interface reference has no id: the fake holds "
        "resources by their ARM ids, which begin with /subscriptions/ or /providers/, so neither finds one"
    ),
    "azure_gpu_stacks.fakeazure.models.compute.xǁVirtualMachineǁcheck__mutmut_58": (
        "`arm.find('XXXX')` for `arm.find('')` when a VM's network interface reference has no id: the fake holds "
        "resources by their ARM ids, which begin with /subscriptions/ or /providers/, so neither finds one"
    ),
    "azure_gpu_stacks.fakeazure.models.compute.xǁVirtualMachineExtensionǁcheck__mutmut_71": (
        "an IP configuration's public IP as its reference object rather than the reference's id: outbound_path asks "
        "only whether one is there, and pulumi-azure-native sends a reference it was given an id for (an unset one "
        "is left out), so the object is there exactly when its id is"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.compute.xǁVirtualMachineǁcomputed__mutmut_{n}": (
            "the salt of a VM's vmId (none, 'XXvmIdXX', 'vmid', 'VMID' for 'vmId'): any gives a UUID that is the "
            "same on every run and the VM's own (it is derived from the VM's id), and none is the salt of another id "
            "of the VM ('principal'); the REST spec says only that Azure assigns it (read-only)"
        )
        for n in (7, 8, 9, 10)
    },
    "azure_gpu_stacks.catalog.pricing.x_unit_price__mutmut_22": _PAYG_ALWAYS,
    "azure_gpu_stacks.catalog.pricing.x_unit_price__mutmut_26": _PAYG_ALWAYS,
    "azure_gpu_stacks.catalog.pricing.x_unit_price__mutmut_27": _PAYG_ALWAYS,
    "azure_gpu_stacks.catalog.pricing.x_estimate_resources__mutmut_3": _NO_SIZES_PASSED,
    "azure_gpu_stacks.catalog.pricing.x_estimate_resources__mutmut_6": _NO_SIZES_PASSED,
    "azure_gpu_stacks.catalog.pricing.x__budget_basis__mutmut_5": _NONE_COUNTED,
    "azure_gpu_stacks.catalog.pricing.x__budget_basis__mutmut_6": _NONE_COUNTED,
    "azure_gpu_stacks.catalog.pricing.x__firing_problem__mutmut_13": (
        "`cost.monthly > 1` for `> 0`: they differ only for a full-scale cost between 0 and 1 USD a month, and the "
        "cheapest price in the catalog (a Spot Standard_D2s_v3 in eastus at 0.01056 USD an hour, 2026-11-27) is "
        "about 7.71 USD a month for one node"
    ),
    # fakeazure.models, fifth session of 2026-11-27, one block per module set (kept apart so that they merge):
    # -- compute, compute_profile, network --
    **{
        f"azure_gpu_stacks.fakeazure.models.network.xǁNetworkSecurityGroupǁcomputed__mutmut_{n}": (
            "the salt of a security group's resourceGuid (none, 'XXguidXX', 'GUID' for 'guid'): any gives a UUID that "
            "is the same on every run and the group's own (derived from its id); the REST spec says only that Azure "
            "assigns it (read-only)"
        )
        for n in (7, 8, 9)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.network.xǁVirtualNetworkǁcomputed__mutmut_{n}": (
            "the salt of a virtual network's resourceGuid (none, 'XXguidXX', 'GUID' for 'guid'): any gives a UUID "
            "that is the same on every run and the network's own (derived from its id); read-only in the REST spec"
        )
        for n in (31, 32, 33)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.network.x_inline_subnet__mutmut_{n}": (
            "an inline subnet's own `name` or `id` kept in its body: every place that answers the body (the VNet's "
            "`subnets` output, the child subnet's outputs, a get's answer, backend._outputs) writes the subnet's name "
            "and id over them, and no check reads them"
        )
        for n in (13, 14, 15, 16)
    },
    **{
        name: (
            "the path naming a prefix of the body itself (a VNet's address space, an inline or standalone "
            "subnet's addressPrefix(es)) appears only in `_network`'s refusal of that prefix, which the prose rules "
            "prefix-format and prefix-host-bits (fakeazure/prose.py, run before a type's own check on every string "
            "prefix of the body) always make first, in their own words; a prefix that is no string is refused by the "
            "spec's type check before either"
        )
        for name in (
            *(f"azure_gpu_stacks.fakeazure.models.network.x_subnet_prefixes__mutmut_{n}" for n in (4, 5, 6)),
            "azure_gpu_stacks.fakeazure.models.network.xǁSubnetǁcheck__mutmut_42",
            *(
                f"azure_gpu_stacks.fakeazure.models.network.xǁVirtualNetworkǁcheck__mutmut_{n}"
                for n in (3, 6, 7, 8, 33)
            ),
        )
    },
    "azure_gpu_stacks.fakeazure.models.network.x_outbound_path__mutmut_13": (
        "`natGateway` itself rather than its `id` asked for truth: natGateway is a SubResource whose only property "
        "is `id`, and pulumi-azure-native sends it with its id or leaves it out, so the object is there exactly "
        "when its id is"
    ),
    "azure_gpu_stacks.fakeazure.models.network.xǁNetworkInterfaceǁcomputed__mutmut_21": (
        "`arm.find('XXXX')` for `arm.find('')` when an IP configuration has no subnet id: the fake holds resources "
        "by their ARM ids, which begin with /subscriptions/ or /providers/, so neither finds one"
    ),
    "azure_gpu_stacks.fakeazure.models.network.xǁNetworkInterfaceǁcomputed__mutmut_53": (
        "13 hex digits of the id's hash for 12: the MAC address joins only the first 12 (range(0, 12, 2))"
    ),
    "azure_gpu_stacks.fakeazure.models.network.xǁVirtualNetworkǁcomputed__mutmut_22": (
        "`subnets: []` rather than no `subnets` for a network made without subnets: the type's answer defaults "
        "(fakeazure/models/defaults.py) answer `subnets: []` whenever the computed part leaves it out, as Azure does "
        "(VirtualNetworkCreate.json's response), so the network's answer is the same either way "
        "(test_network_model_rules.test_a_network_made_without_subnets_answers_empty_subnet_and_peering_lists)"
    ),
    "azure_gpu_stacks.fakeazure.models.network.xǁNetworkInterfaceǁcheck__mutmut_30": (
        "'XXXX' for '' as a missing subnet id: neither is a subnet's id (prose.subnet_network answers None for both), "
        "so no network is looked up either way"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_image_generation__mutmut_9": (
        "'xxxx' for '' as a missing image SKU: neither ends with gen2 or gen1 nor is a Canonical `NN_NN-lts` SKU, so "
        "the generation is unknown either way"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.compute_profile.x_image_generation__mutmut_{n}": (
            "'xxxx' for '' as a missing image offer or publisher: neither is 'ubuntu-hpc' or 'canonical', so the "
            "generation is read from the SKU alone either way"
        )
        for n in (20, 37)
    },
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_machine__mutmut_3": (
        "a size that is no string looked up by its str(): 'None' (a body without a size) or any other non-string "
        "names no size of the catalog, so the checks are skipped either way"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_machine__mutmut_34": (
        "the separator between a size's generations in the refusal: a size is refused an image's generation only "
        "when it boots the other one alone (there are two, V1 and V2), so the list it names has one item"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_extension__mutmut_5": (
        "'xxxx' for '' as a missing extension type: neither is a driver type the checks know"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_extension__mutmut_28": (
        "an image SKU upper-cased rather than lower-cased before the Ubuntu release is read: both release patterns "
        "read only its digits and separators, and the message quotes the SKU as given"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_extension__mutmut_34": (
        "'xxxx' for '' as a missing image SKU: neither holds an Ubuntu release, so the InfiniBand check passes "
        "either way"
    ),
    "azure_gpu_stacks.fakeazure.models.compute_profile.x_check_extension__mutmut_48": (
        "'xxxx' for '' as a missing image offer: neither names Ubuntu, so the InfiniBand check passes either way"
    ),
    # -- containerservice, monitor --
    "azure_gpu_stacks.fakeazure.models.containerservice.x__check_api_server_access__mutmut_30": (
        "`strict=None` for `strict=False` in ipaddress.ip_network: the standard library tests `if strict:`, so "
        "None and False both accept host bits"
    ),
    "azure_gpu_stacks.fakeazure.models.containerservice.xǁManagedClusterǁcomputed__mutmut_13": (
        "the fqdn's suffix hashed from the upper-cased id rather than the lower-cased one: either is 8 hexadecimal "
        "digits of the cluster's own, the same on every run and for any casing of its id (ARM ids are "
        "case-insensitive); the spec's example shows only that Azure makes one up (dnsprefix1-abcd1234)"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.containerservice.xǁAgentPoolǁcheck__mutmut_{n}": (
            "an inline pool without a name read as 'None' or 'XXXX' rather than '': a cluster the fake holds has a "
            "name on every inline pool (its PUT refuses one without: agentPoolProfiles[].name is required, "
            "^[a-z][a-z0-9]{0,11}$ in the 2025-09-01 spec), and no agent pool can be named 'None' or 'XXXX'"
        )
        for n in (10, 12, 15)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.containerservice.x__cluster_credentials__mutmut_{n}": (
            "the name of the kubeconfig entry ('clusterUser') or its key changed: nothing reads it (the component "
            "takes the first entry's value, as `az aks get-credentials` does), and the spec's CredentialResult "
            "example names it credentialName1"
        )
        for n in (19, 20, 21, 22, 23)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.monitor.xǁ{model}ǁcomputed__mutmut_{n}": (
            "the salt of an id Azure assigns (none, 'XX...XX' or another casing of accountId, internalId or "
            "immutableId): "
            "any gives a UUID that is the same on every run and the resource's own (derived from its id), distinct "
            "from the resource's other ids; the specs say only that Azure assigns them (read-only)"
        )
        for model, numbers in (
            ("AzureMonitorWorkspace", (7, 8, 9, 10, 19, 20, 21, 22)),
            ("DataCollectionEndpoint", (27, 28, 29, 30)),
            ("DataCollectionRule", (11, 12, 13, 14)),
        )
        for n in numbers
    },
    # -- defaults, machinelearningservices, batch, keyvault --
    **{
        f"azure_gpu_stacks.fakeazure.models.defaults.x_{function}__mutmut_{n}": (
            "a missing SKU name read as 'XXXX' rather than '': neither is a geo-redundant SKU nor 'standard'"
        )
        for function, n in (("_secondary_location", 14), ("_allocation_method", 19))
    },
    "azure_gpu_stacks.fakeazure.models.defaults.x__status_of_secondary__mutmut_3": (
        "`_secondary_location(None, res)`: _secondary_location reads only the resource (its SKU and region), never "
        "the subscription"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.defaults.x__single_placement_group__mutmut_{n}": (
            "a scale set without orchestrationMode read as 'uniform' or 'UNIFORM' rather than 'Uniform': it is "
            "lower-cased before it is compared"
        )
        for n in (10, 11)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.defaults.x_{function}__mutmut_{n}": (
            "`(parent is not None) or True`: defaults are answered only for a PUT the fake accepted, and it accepts a "
            "secret or an agent pool only once its vault or cluster exists (FakeArm.put's parent_of, "
            "ParentResourceNotFound otherwise), so the parent is never None there"
        )
        for function, n in (("_vault_location", 9), ("_orchestrator_version", 13))
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.defaults.x__max_pods__mutmut_{n}": (
            "a network plugin mode read upper-cased or as 'none': no row of MAX_PODS_BY_PLUGIN names a mode (its "
            "sources give none), so a pool whose cluster names any mode finds no row, however the mode is spelled"
        )
        for n in (30, 31)
    },
    "azure_gpu_stacks.fakeazure.models.batch.xǁBatchAccountǁcheck__mutmut_16": (
        "`dig(vault)` for `dig(vault, 'id')` (a UserSubscription account's keyVaultReference judged present without "
        "its id): the REST spec's KeyVaultReference requires id and url, so a reference without an id is refused "
        "InvalidParameter by the spec's constraints (fakeazure/spec.py) in the same PUT either way"
    ),
    "azure_gpu_stacks.fakeazure.models.batch.xǁBatchPoolǁcheck__mutmut_46": (
        "a missing targetNodeCommunicationMode read as 'xxxx' rather than '': neither is classic"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.batch.xǁBatchPoolǁcheck__mutmut_{n}": (
            "`isinstance(...) or True` before reading fixedScale's count, autoScale's formula or the formula: the "
            "spec types fixedScale and autoScale as objects and formula as a string, and a value of the wrong JSON "
            "type is refused before any rule reads it (FakeArm.put: is_wrong_type); an absent one is None, which "
            "`dig` and low_priority_request read as no request"
        )
        for n in (96, 106, 122)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.machinelearningservices.xǁMlWorkspaceǁcomputed__mutmut_{n}": (
            "the salt of a workspace's workspaceId (none, 'XXworkspaceIdXX', 'workspaceid', 'WORKSPACEID' for "
            "'workspaceId'): any gives a UUID that is the same on every run and the workspace's own (derived from its "
            "id), and none is the salt of another id of the workspace ('principal'); the REST spec says only that "
            "Azure assigns it (read-only)"
        )
        for n in (8, 9, 10, 11)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.keyvault.xǁSecretǁcomputed__mutmut_{n}": (
            "the salt of a secret's version in secretUriWithVersion (none, 'XXversionXX', 'VERSION' for 'version'): "
            "any gives 32 hexadecimal digits that are the same on every run and the secret's own (derived from its "
            "id), as createSecret.json's version is; the spec says only that Azure assigns it (read-only)"
        )
        for n in (29, 30, 31)
    },
    # -- the smaller models (__init__, consumption, authorization, alertsmanagement, devtestlab, storage, ...) --
    **{
        f"azure_gpu_stacks.fakeazure.models.{module}.xǁ{kind}ǁcheck__mutmut_{n}": (
            "the path named when an extension resource's scope is no resource id or does not exist ('scope' as None, "
            "'XXscopeXX' or 'SCOPE'): the backend has already required the same scope, named 'scope' (its "
            "scope_input), to find where to store the resource (FakeArm._container), before the type's own check, "
            "so this call never refuses"
        )
        for module, kind in (("consumption", "Budget"), ("authorization", "RoleAssignment"))
        for n in (2, 9, 10)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.consumption.xǁBudgetǁcomputed__mutmut_{n}": (
            "the salt of a budget's eTag (none, 'XXetagXX', 'ETAG' for 'etag'): any gives a value that is the same on "
            "every run and the budget's own (it is derived from the budget's id), and the budget has no other id "
            "derived from its id; the spec's example answers an opaque eTag ('\"1d34d012214157f\"')"
        )
        for n in (17, 18, 19)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.applicationinsights.xǁApplicationInsightsǁcomputed__mutmut_{n}": (
            "the salt of a component's instrumentation key or appId (none, 'XX...XX', lower or upper case): any gives "
            "a GUID that is the same every run and the component's own (derived from its id), and the two salts stay "
            "apart, so the key is never the appId; Azure assigns both"
        )
        for n in (5, 6, 7, 8, 15, 16, 17, 18)
    },
    **{
        f"azure_gpu_stacks.fakeazure.models.operationalinsights.xǁLogAnalyticsWorkspaceǁcomputed__mutmut_{n}": (
            "the salt of a workspace's customerId (none, 'XXcustomerIdXX', lower or upper case): any gives a GUID that "
            "is the same every run and the workspace's own (derived from its id), and nothing else in the fake "
            "derives a customerId; Azure assigns it"
        )
        for n in (7, 8, 9, 10)
    },
    "azure_gpu_stacks.fakeazure.models.devtestlab.xǁGlobalScheduleǁcheck__mutmut_35": (
        "a VM shutdown schedule without a resourceGroupName read as group 'XXXX' rather than '': the backend refuses "
        "such a PUT first (ResourceGroupNotFound, FakeArm._container), so the check never meets one"
    ),
    "azure_gpu_stacks.fakeazure.models.devtestlab.xǁGlobalScheduleǁcheck__mutmut_45": (
        "a target without a resource group compared as 'XXXX' rather than '': a schedule always has a group (the "
        "backend refuses one without), never '' and, unless literally named XXXX, never 'xxxx', so both refuse; "
        "and a VM, the target of a ComputeVmShutdownTask, always has a group"
    ),
    **{
        f"azure_gpu_stacks.fakeazure.models.authorization.x_object_id_of__mutmut_{n}": (
            "the salt of the fake deployer's object id (none, 'XXobjectXX', 'OBJECT', or the client id left out): "
            "the fake has one client (FAKE_CLIENT_ID), so each gives one GUID, the same every run and none of the "
            "client's, tenant's or subscription's ids (no other id of the fake is derived from the client id alone); "
            "Entra ID assigns object ids, so no value is Azure's"
        )
        for n in (3, 4, 5, 6)
    },
    # -- policies (score run) --
    "azure_gpu_stacks.policies.warn_incoherent_budgets.x__problems__mutmut_3": (
        "`canonical_type(None)` for the resource's type: a ResourceGroup is then counted only when the budget covers "
        "it. The costing reads a group only as the region of the resources that name it in resourceGroupName "
        "(catalog/demand.py _group_locations, catalog/charges.py _group_regions, both by the group's "
        "resourceGroupName, lower-cased), and such a resource is covered only when its group is, which then covers "
        "the group too (Coverage.covers, lower-cased): a group the budget does not cover prices nothing counted"
    ),
}

# One class of equivalent mutants, found by their diff: the letter case of a string changed where it is a
# property name or a value the policies read without regard to case (policies/values.py: `child`, and so
# `get`, falls back to any casing of a key; `same` compares lower-cased). Azure compares property names and
# enum values case-insensitively, so the policies must too; the casing of these literals is not behaviour.
# (not a method such as dict.get, which is case-sensitive: hence no `.` before the name)
# (aks_gpu_driver_ownership's `_value(values, ("driver", "enabled"), default)` hands its path tuple to `get`)
CASE_INSENSITIVE_READS = re.compile(r"(?<![\w.])(?:(?:get|child|same|_strings)\(|_value\([^()]*,\s*\()$")
CASE_ONLY = "only a string's letter case, where policies/values.py reads it case-insensitively (get, child, same)"


# Another class, by diff: `report_violation(message, None)` with its `None` dropped. The SDK's report_violation
# takes `urn: Optional[str] = None` (pulumi_policy's policy.py, ReportViolation), so the two calls are one.
REPORT_URN_DEFAULT = (
    "drops the `None` urn of `report_violation(message, None)`, which is the SDK's default (pulumi_policy's "
    "policy.py: ReportViolation's urn is Optional[str] = None)"
)


def drops_report_urn(diff: str) -> bool:
    """Whether the only change in `diff` (with the whole function as context) removes a `None` that is the last
    argument of a `report_violation(...)` call."""
    lines = [line for line in diff.splitlines() if not line.startswith(("---", "+++", "@@"))]
    before = "\n".join(line[1:] for line in lines if not line.startswith("+"))
    after = "\n".join(line[1:] for line in lines if not line.startswith("-"))
    squeeze = re.compile(r"\s+")
    for match in re.finditer(r"\bNone\b\s*,?", before):
        dropped = before[: match.start()] + before[match.end() :]
        if squeeze.sub("", dropped).replace(",)", ")") != squeeze.sub("", after).replace(",)", ")"):
            continue
        # the call that the dropped None closes: the nearest unclosed "(" before it
        depth, i = 0, match.start()
        while i > 0:
            i -= 1
            depth += {")": 1, "(": -1}.get(before[i], 0)
            if depth < 0:
                break
        return (
            depth < 0
            and before[:i].rstrip().endswith("report_violation")
            and squeeze.sub("", before[match.end() :]).startswith(")")
        )
    return False


def equivalence(diff: str) -> str | None:
    """Why the mutant in `diff` (mutmut's unified diff) is equivalent, or None."""
    if drops_report_urn(diff):
        return REPORT_URN_DEFAULT
    removed = [line[1:] for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    if len(removed) != 1 or len(added) != 1 or removed[0] == added[0]:
        return None
    before, after = removed[0], added[0]
    if before.lower() != after.lower():
        return None
    # the changed literal (mutmut changes one; in double or single quotes, as inside an f-string) must be an
    # argument of a case-insensitive read on that line
    differ = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
    opening = max(before.rfind('"', 0, differ[0]), before.rfind("'", 0, differ[0]))
    if opening < 0 or before.find(before[opening], differ[-1]) < 0:
        return None
    call = before[:opening]
    opened = enclosing_call(call)
    if opened < 0 or not CASE_INSENSITIVE_READS.search(call[: opened + 1]):
        return None
    return CASE_ONLY


def enclosing_call(text: str) -> int:
    """Where the innermost "(" left open at the end of `text` is, or -1."""
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth < 0:
            return i
    return -1


# A mark in a kept staging folder whose test selection changed since its last run (mutmut will forget its results).
FORGOTTEN = "selection-changed"

# The mutants judged equivalent before a run and so not run, name -> why, in each staging folder.
SKIPPED = "equivalent-not-run.json"

# mutmut's exit codes (mutmut/stats.py, status_by_exit_code)
STATUS: dict[int | None, str] = {
    1: "killed",
    3: "killed",
    0: "survived",
    33: "no tests",
    5: "no tests",
    36: "timeout",
    24: "timeout",
    -24: "timeout",  # SIGXCPU: the mutant ran past its CPU-time limit
    None: "not run",
}


def find_tests(names: list[str]) -> list[str]:
    """Each name's path under tests/ (relative to the repository), a missing one an error."""
    found: list[str] = []
    for name in names:
        if name.endswith("/"):
            matches = [p for p in (REPO / "tests").rglob(name.rstrip("/")) if p.is_dir()]
        else:
            matches = [p for p in (REPO / "tests").rglob(name) if p.is_file() and "data" not in p.parts]
        if not matches:
            sys.exit(f"mutation: no test file {name} under tests/")
        found += sorted(str(p.relative_to(REPO)) for p in matches)
    return found


def stage(target: str, keep: bool = False, screen: list[str] | None = None) -> Path:
    """`STAGING/<target>/`: azure_gpu_stacks/ (a copy of the rooms), tests/ and pyproject.toml for
    mutmut, and mutants/ with links to the rest of the repository. With `keep`, mutmut's mutants/ (its
    test map and results) stays and only the copies are made again."""
    modules, tests = TARGETS[target]
    folder = STAGING / (f"{target}-screen" if screen else target)
    tests = screen or tests
    kept = keep and (folder / "mutants").is_dir()
    if kept:
        for copy in ("azure_gpu_stacks", "tests"):
            shutil.rmtree(folder / copy)
    else:
        shutil.rmtree(folder, ignore_errors=True)
    package = folder / "azure_gpu_stacks"
    package.mkdir(parents=True)
    shutil.copy2(REPO / "__init__.py", package / "__init__.py")
    skip = shutil.ignore_patterns("__pycache__", "venv")  # policies/venv links to .venv
    for room in ROOMS:
        shutil.copytree(REPO / room, package / room, ignore=skip)
    shutil.copytree(REPO / "tests", folder / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    selection = find_tests(tests)
    settings = "\n".join(
        [
            "",
            "[tool.mutmut]",
            'source_paths = ["azure_gpu_stacks"]',
            f"only_mutate = {json.dumps(['azure_gpu_stacks/' + m for m in modules])}",
            f"do_not_mutate = {json.dumps(['azure_gpu_stacks/' + m for m in NOT_RULES])}",
            f"pytest_add_cli_args_test_selection = {json.dumps(selection)}",
            f"pytest_add_cli_args = {json.dumps(['-p', 'no:cacheprovider', *pytest_options(screen)])}",
            "",
        ]
    )
    project = folder / "pyproject.toml"
    # mutmut forgets every result when the test selection changes (its `test_selection` fingerprint)
    forgets = kept and project.exists() and settings not in project.read_text()
    project.write_text((REPO / "pyproject.toml").read_text() + settings)
    if forgets:
        (folder / FORGOTTEN).write_text("")
    else:
        (folder / FORGOTTEN).unlink(missing_ok=True)
    if kept:
        prune_copies(folder / "mutants")
    link_repository(folder / "mutants")
    return folder


def pytest_options(screen: list[str] | None) -> list[str]:
    """The tests every run leaves out (DESELECT), and for a screen the pack-wide ones (SCREEN_IGNORE)."""
    return [*(f"--deselect={t}" for t in DESELECT), *(f"--ignore={t}" for t in (SCREEN_IGNORE if screen else []))]


def prune_copies(mutants: Path) -> None:
    """Remove mutmut's copies of what it does not mutate from a kept `mutants/`, keeping its results (the
    `.meta` files) and the mutated modules (which it regenerates when their source is newer). mutmut copies
    a file that is not Python (catalog/arm/name_rules.json...) only when no copy exists, so a kept copy would
    pair this checkout's code with an older checkout's data; the tests are copied again too, so that a test
    removed since is not collected."""
    shutil.rmtree(mutants / "tests", ignore_errors=True)
    package = mutants / "azure_gpu_stacks"
    # os.walk, which does not follow the links to the checkout (docs/, data/...) made beside the rooms
    for root, _dirs, files in os.walk(package, followlinks=False):
        for name in files:
            path = Path(root) / name
            if not path.is_symlink() and path.suffix != ".meta" and not path.with_name(name + ".meta").exists():
                path.unlink()


def link_repository(mutants: Path) -> None:
    """Link every top-level entry of this checkout into mutmut's `mutants/`, beside the package and inside
    it. Made again on every run: a kept staging folder may have been made from another checkout (a
    worktree since removed), whose links would point nowhere or at older data."""
    package = mutants / "azure_gpu_stacks"
    package.mkdir(parents=True, exist_ok=True)
    for folder in (mutants, package):
        for entry in folder.iterdir():
            if entry.is_symlink():
                entry.unlink()
    # The package is the repository root: code that finds docs/ or data/ beside its room (policies/docs.py's
    # DOC_FILE) looks in the package folder, so the entries that are not rooms are linked there too.
    not_linked = {"tests", "pyproject.toml", ".git", ".venv", ".tools", "__pycache__"}
    for entry in REPO.iterdir():
        if entry.name in not_linked or entry.name.endswith(".egg-info"):
            continue
        if not (mutants / entry.name).exists():  # mutmut's own copies (the rooms it mutates) stay
            (mutants / entry.name).symlink_to(entry)
        if entry.name not in (*ROOMS, "__init__.py") and not (package / entry.name).exists():
            (package / entry.name).symlink_to(entry)


def mutant_codes(folder: Path) -> dict[str, dict[str, int | None]]:
    """Module (as a path under the package) -> mutant name -> mutmut's exit code (None: not run yet)."""
    package = folder / "mutants" / "azure_gpu_stacks"
    return {
        str(meta.relative_to(package))[: -len(".meta")]: json.loads(meta.read_text())["exit_code_by_key"]
        for meta in sorted(package.rglob("*.py.meta"))
    }


def diffs(folder: Path, names: list[str], whole: bool = False) -> dict[str, str]:
    """Each mutant's diff, as `mutmut show` prints it (read in the staging folder, where mutmut's config is);
    `whole`: with the whole function as context, for the rules that read the call around a change."""
    if not names:
        return {}
    # mutmut's own readers (mutmut/mutation/diff_apply.py, as `mutmut show` uses them), each module parsed once
    script = f"""
import difflib, json, sys
import libcst as cst
from mutmut.mutation.data import SourceFileMutationData
from mutmut.mutation.diff_apply import read_mutant_function, read_mutants_module, read_original_function
from mutmut.utils.file_utils import walk_mutatable_files
path_of, modules = {{}}, {{}}
for path in walk_mutatable_files():
    data = SourceFileMutationData(path=path)
    data.load()
    path_of.update(dict.fromkeys(data.exit_code_by_key, path))
def shown(name):
    try:
        path = path_of[name]
        if path not in modules:
            modules[path] = read_mutants_module(path)
        module = modules[path]
        functions = (read_original_function(module, name), read_mutant_function(module, name))
        before, after = (cst.Module([f]).code.strip().split("\\n") for f in functions)
        where, context = str(path), {100_000 if whole else 3}
        lines = difflib.unified_diff(before, after, fromfile=where, tofile=where, lineterm="", n=context)
        return "\\n".join(lines)
    except Exception as e:
        return f"(no diff: {{e!r}})"
print(json.dumps({{n: shown(n) for n in json.loads(sys.stdin.read())}}))
"""
    shown = subprocess.run(
        [sys.executable, "-c", script], cwd=folder, input=json.dumps(names), capture_output=True, text=True, check=True
    )
    return dict(json.loads(shown.stdout))


def judged_equivalent(folder: Path, names: list[str]) -> dict[str, str]:
    """Which of `names` are equivalent (by name or by their diff), each with why."""
    shown = diffs(folder, [n for n in names if n not in EQUIVALENT], whole=True)
    return {n: why for n in names if (why := EQUIVALENT.get(n) or equivalence(shown[n]))}


def runnable(folder: Path, globs: list[str]) -> list[str] | None:
    """The mutants that `globs` match and no test has killed yet, less those judged equivalent, which are
    recorded as skipped (SKIPPED in the folder) rather than run: an equivalent mutant survives by
    definition, and a surviving policy mutant costs every pack-wide test (about 110 s). None when mutmut
    has not yet generated this folder's mutants (its first run): then every match runs."""
    codes = mutant_codes(folder)
    if not codes:
        return None
    if (folder / FORGOTTEN).exists():  # mutmut will forget these results: every match runs again
        codes = {module: dict.fromkeys(by_name) for module, by_name in codes.items()}
    # mutmut runs every mutant named, so one already killed is left out (mutmut forgets the result of a
    # function whose code changed); a survivor runs again, against any test written since
    matched = [
        n
        for by_name in codes.values()
        for n, code in by_name.items()
        if STATUS.get(code) != "killed" and any(fnmatch.fnmatch(n, g) for g in globs)
    ]
    equivalent = judged_equivalent(folder, matched)
    skipped_file = folder / SKIPPED
    skipped = json.loads(skipped_file.read_text()) if skipped_file.exists() else {}
    skipped = {n: why for n, why in skipped.items() if n not in matched} | equivalent  # judged again now
    skipped_file.write_text(json.dumps(skipped, indent=1, sort_keys=True))
    return [n for n in matched if n not in equivalent]


def judge(folder: Path) -> tuple[dict[str, Counter[str]], dict[str, str], dict[str, str]]:
    """Status counts per module, the mutants not killed (name -> diff) and the equivalent ones (name -> why)."""
    codes = mutant_codes(folder)
    status = {n: STATUS.get(code, f"exit {code}") for by_name in codes.values() for n, code in by_name.items()}
    not_killed = [n for n, st in status.items() if st not in ("killed", "not run")]
    shown = diffs(folder, not_killed)
    whole = diffs(folder, not_killed, whole=True)
    equivalent: dict[str, str] = {}
    for name in not_killed:
        why = EQUIVALENT.get(name) or equivalence(whole[name])
        if why and status[name] == "survived":
            equivalent[name] = why
    skipped_file = folder / SKIPPED
    skipped = json.loads(skipped_file.read_text()) if skipped_file.exists() else {}
    equivalent |= {n: why for n, why in skipped.items() if status.get(n) == "not run"}
    counts = {
        module: Counter("equivalent" if n in equivalent else status[n] for n in by_name)
        for module, by_name in codes.items()
    }
    left = {n: shown[n] for n in not_killed if n not in equivalent}
    return counts, left, equivalent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"one of {', '.join(TARGETS)} (default: all)")
    parser.add_argument(
        "--max-children", "--jobs", dest="jobs", type=int, default=os.cpu_count() or 2, help="mutants tested at once"
    )
    parser.add_argument("--keep", action="store_true", help="reuse the staging folder: mutmut's results so far")
    parser.add_argument(
        "--screen",
        nargs="+",
        metavar="TEST",
        help="a quick first pass, not a score: only these test files (by name, as in TARGETS), in their own staging "
        "folder (<target>-screen); what survives them is what to read first",
    )
    parser.add_argument(
        "--mutants", nargs="+", default=[], metavar="GLOB", help="run only the mutants whose names match (a chunk)"
    )
    args = parser.parse_args()
    if unknown := [t for t in args.targets if t not in TARGETS]:
        parser.error(f"unknown target {unknown[0]}; allowed: {', '.join(TARGETS)}")
    mutmut = Path(sys.executable).parent / "mutmut"
    for target in args.targets or list(TARGETS):
        folder = stage(target, keep=args.keep, screen=args.screen)
        started = time.monotonic()
        names = [g if g.startswith(("azure_gpu_stacks.", "*")) else f"azure_gpu_stacks.{g}" for g in args.mutants]
        if names and (chosen := runnable(folder, names)) is not None:
            names = chosen
        if names or not args.mutants:  # every mutant left equivalent: nothing to run
            run = subprocess.run([str(mutmut), "run", "--max-children", str(args.jobs), *names], cwd=folder)
            if run.returncode != 0:
                print(f"mutation: mutmut run for {target} exited {run.returncode}", file=sys.stderr)
                return run.returncode
        seconds = round(time.monotonic() - started)
        counts, left, equivalent = judge(folder)
        print(f"\n== {target}: {seconds} s")
        for module, c in counts.items():
            print(f"{module}: killed {c['killed']}, survived {c['survived']}, equivalent {c['equivalent']}", end="")
            others = {k: v for k, v in c.items() if k not in ("killed", "survived", "equivalent")}
            print(f", {others}" if others else "")
        for name, diff in left.items():
            print(f"# {name}\n{diff}\n")
        summary = {"seconds": seconds, "modules": counts, "not_killed": list(left), "equivalent": equivalent}
        (folder.with_suffix(".json")).write_text(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
