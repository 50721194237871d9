"""Offers Azure no longer creates, other than VM sizes (issue 39): a classic CDN profile
(Standard_Microsoft: "Starting August 15, 2025, Azure CDN from Microsoft (classic) will no longer support
new domain onboarding or profile creation", Learn, cdn-manage-powershell). No ARM error code for it is
public, so it is a plan warning, never a refusal. pulumi/examples' azure-py-static-website creates one."""

from __future__ import annotations

import json

import pytest
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

SITE = REPO / "tests" / "data" / "public" / "azure-py-static-website"


def plan(capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    code = main(["plan", "dev", "--project", str(SITE), "--json", *extra])
    document = json.loads(capsys.readouterr().out)
    assert code == 0
    return document


def test_a_classic_cdn_profile_is_a_warning_with_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    document = plan(capsys)

    [warning] = [w for w in document["warnings"] if "Standard_Microsoft" in w]
    assert warning.startswith("profile: sku Standard_Microsoft: ")
    assert "https://learn.microsoft.com/azure/cdn/cdn-manage-powershell" in warning
    assert document["refusals"] == []


def test_before_the_day_azure_stopped_creating_them_nothing_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    document = plan(capsys, "--as-of", "2025-08-14")

    assert not [w for w in document["warnings"] if "Standard_Microsoft" in w]
