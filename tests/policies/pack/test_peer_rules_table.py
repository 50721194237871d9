"""docs/policies.md's peer-rule table: one row for every policy of the pack, and no row for a policy it lacks."""

from __future__ import annotations

import re

from azure_gpu_stacks.policies.registry import REGISTRY

from tests.conftest import REPO

HEADER = "| Policy | checkov | PSRule for Azure | Azure Policy built-in | What this pack adds |"
ROW = re.compile(r"^\| `(?P<policy>[a-z0-9-]+)` \|(?P<cells>.*)\|$")


def peer_rows() -> dict[str, list[str]]:
    text = (REPO / "docs" / "policies.md").read_text(encoding="utf-8")
    section = text.split("## Peer rules", 1)[1].split("\n## ", 1)[0]
    assert HEADER in section
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if found := ROW.match(line):
            assert found["policy"] not in rows, f"{found['policy']} has two rows"
            rows[found["policy"]] = [cell.strip() for cell in found["cells"].split(" | ")]
    return rows


def test_every_policy_has_one_row_and_every_row_is_a_policy() -> None:
    assert sorted(peer_rows()) == sorted(p.name for p in REGISTRY)


def test_every_row_answers_each_peer() -> None:
    for policy, cells in peer_rows().items():
        assert len(cells) == 4 and all(cells), f"{policy}: {cells}"


def test_a_checkov_id_or_azure_policy_id_is_written_as_the_peer_publishes_it() -> None:
    for policy, (checkov, psrule, azure_policy, _) in peer_rows().items():
        assert all(re.fullmatch(r"CKV_AZURE_[0-9]+", i) for i in re.findall(r"`(CKV[^`]*)`", checkov)), policy
        assert all(re.fullmatch(r"Azure\.[A-Za-z]+\.[A-Za-z]+", n) for n in re.findall(r"`([^`]+)`", psrule)), policy
        ids = re.findall(r"`([^`]+)`", azure_policy)
        assert all(re.fullmatch(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", i) for i in ids), policy
