"""Offers Azure no longer creates, other than VM sizes (issue 39). A classic CDN profile (Standard_Microsoft:
"Starting August 15, 2025, Azure CDN from Microsoft (classic) will no longer support new domain onboarding or
profile creation", Learn, cdn-manage-powershell) is refused with what Azure answered a deployment on
2025-08-18: "Azure CDN from Microsoft (classic) no longer support new profile creation. (Code: BadRequest)"
(Azure/wordpress-linux-appservice#206). pulumi/examples' azure-py-static-website creates one. Edgio's SKUs,
whose refusal has no public code, stay a plan warning."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from azure_gpu_stacks.catalog.retired_offers import retired_offer
from azure_gpu_stacks.engine.cli import main

from tests.conftest import REPO

SITE = REPO / "tests" / "data" / "public" / "azure-py-static-website"
CLASSIC = "Azure CDN from Microsoft (classic) no longer support new profile creation."


def plan(capsys: pytest.CaptureFixture[str], code: int, *extra: str) -> dict:
    got = main(["plan", "dev", "--project", str(SITE), "--json", *extra])
    document = json.loads(capsys.readouterr().out)
    assert got == code
    return document


def test_a_classic_cdn_profile_is_refused_with_azure_s_code_and_words(capsys: pytest.CaptureFixture[str]) -> None:
    document = plan(capsys, 1)

    [refusal] = document["refusals"]
    assert (refusal["resource"], refusal["code"]) == ("profile", "BadRequest")
    assert CLASSIC in refusal["message"]
    assert not [w for w in document["warnings"] if "Standard_Microsoft" in w]


def test_before_the_day_azure_stopped_creating_them_nothing_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    document = plan(capsys, 0, "--as-of", "2025-08-14")

    assert document["refusals"] == []
    assert not [w for w in document["warnings"] if "Standard_Microsoft" in w]


def test_an_offer_without_a_public_code_stays_a_warning() -> None:
    offer = retired_offer("azure-native:cdn:Profile", {"sku": {"name": "Standard_Verizon"}}, dt.date(2026, 11, 27))

    assert offer is not None and offer.refusal is None
