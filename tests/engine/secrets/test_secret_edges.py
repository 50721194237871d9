"""Canaries at the edges users run in CI: `export-arm` (stdout and -o), `preflight` in every format with
Azure echoing the canaries back (its answers replayed), and the fleet (`check --root` in every format, its
cache directory, `check --shard` files and `merge` in every format). Every byte each command prints, logs
or writes is searched for each canary of tests/engine/secrets/test_hostile_secrets.py; none may be there.

The canary project, its stack files and its secrets are tests/engine/secrets/test_hostile_secrets.py's; what
Azure says is shaped as the REST spec's Validate 400 and What-If 200 answers (tests/data/arm-responses), with every
canary quoted in its messages and the secret resource group's name in its ids and targets.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from azure_gpu_stacks.engine.arm.client import Connection
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.commands import preflight

from tests.arm_replay import SUBSCRIPTION, RecordingTransport, Replay, StaticCredential
from tests.engine.secrets.test_hostile_secrets import CANARIES, write_project

FORMATS = ("text", "json", "markdown", "sarif")
SECRET_GROUP = CANARIES["refused"]  # a resource group whose name the program made secret


@dataclass
class Ran:
    """What one command left behind: its exit code, what it printed and logged, and the files it wrote."""

    code: int
    out: bytes
    err: bytes
    logged: bytes = b""
    files: tuple[tuple[str, bytes], ...] = ()

    def leaked(self) -> set[str]:
        places = [("stdout", self.out), ("stderr", self.err), ("log", self.logged), *self.files]
        return {f"{name} in {where}" for where, data in places for name, c in CANARIES.items() if c.encode() in data}


class Capture:
    """Every byte written to file descriptors 1 and 2 (and through sys.stdout and sys.stderr) and every
    record logged at any level, while one command runs: pytest's own capture fixtures are per test, and
    each command here plans once for the several tests that search what it left."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.count = 0

    def run(self, *argv: Any) -> Ran:
        self.count += 1
        out_path, err_path = (self.directory / f"{self.count}.{name}" for name in ("out", "err"))
        logged: list[str] = []
        handler = logging.Handler(logging.DEBUG)
        handler.emit = lambda record: logged.append(record.getMessage())  # type: ignore[method-assign]
        root = logging.getLogger()
        level = root.level
        sys.stdout.flush()
        sys.stderr.flush()
        saved = (os.dup(1), os.dup(2), sys.stdout, sys.stderr)
        with out_path.open("wb") as out_file, err_path.open("wb") as err_file:
            os.dup2(out_file.fileno(), 1)
            os.dup2(err_file.fileno(), 2)
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            root.addHandler(handler)
            root.setLevel(logging.DEBUG)
            try:
                code = main([str(a) for a in argv])
            finally:
                root.setLevel(level)
                root.removeHandler(handler)
                sys.stdout.flush()
                sys.stderr.flush()
                os.dup2(saved[0], 1)
                os.dup2(saved[1], 2)
                os.close(saved[0])
                os.close(saved[1])
                sys.stdout, sys.stderr = saved[2], saved[3]
        return Ran(code, out_path.read_bytes(), err_path.read_bytes(), "\n".join(logged).encode())


def files_under(directory: Path) -> tuple[tuple[str, bytes], ...]:
    return tuple((str(p), p.read_bytes()) for p in sorted(directory.rglob("*")) if p.is_file())


@pytest.fixture(scope="module")
def canaries(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("edges") / "canaries")


def existing(project: Path) -> list[str]:
    return ["--existing", str(project / "existing.json")]


# --- export-arm ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def exported(canaries: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """export-arm of the canary stack to stdout and with -o, run once each."""
    directory = tmp_path_factory.mktemp("export")
    capture = Capture(directory)
    written = directory / "template.json"
    runs = {"stdout": capture.run("export-arm", "dev", "--project", canaries, *existing(canaries))}
    ran = capture.run("export-arm", "dev", "--project", canaries, *existing(canaries), "-o", written)
    runs["-o FILE"] = Ran(ran.code, ran.out, ran.err, ran.logged, ((str(written), written.read_bytes()),))
    return runs


@pytest.mark.parametrize("where", ["stdout", "-o FILE"])
def test_export_arm_writes_no_canary(exported: dict[str, Ran], where: str) -> None:
    ran = exported[where]

    assert ran.code == 0, ran.err
    assert ran.leaked() == set()


def test_export_arm_makes_each_secret_a_secure_parameter_with_no_value(exported: dict[str, Ran]) -> None:
    """The secrets are still sent to Azure: each place that held one names a secure parameter instead."""
    document = json.loads(exported["stdout"].out)
    parameters = document["parameters"]
    entries = list(_entries(document))

    assert parameters and all(set(p) == {"type"} for p in parameters.values())  # no value, no defaultValue
    assert {p["type"] for p in parameters.values()} <= {"secureString", "secureObject"}
    # the program's secret password, secret tag, config secret read with config.get, secret number, an
    # existing resource's credential and another stack's secret output, where the program put each (the
    # value itself, or the whole input Pulumi marked secret for it); names are the program's, autonamed
    for logical, path in [
        ("vm", ("properties", "osProfile", "adminPassword")),
        ("rg", ("tags", "owner")),
        ("db", ("tags", "host")),
        ("numbered", ("tags", "n")),
        ("joined", ("tags", "pw")),
        ("referenced", ("tags", "user")),
    ]:
        (entry,) = [e for e in entries if e["name"].startswith(logical)]
        assert _parameter_on(entry, path) in parameters, (logical, path)
    # the resource group whose name is secret is named by a secure string
    (refused,) = [e for e in entries if e["type"] == "Microsoft.Resources/resourceGroups" and e["name"][0] == "["]
    assert parameters[PARAMETER.fullmatch(refused["name"])[1]] == {"type": "secureString"}  # type: ignore[index]
    assert "CANARY" not in json.dumps(document["metadata"]["outsideTemplate"])


PARAMETER = re.compile(r"\[parameters\('(\w+)'\)\]")


def _parameter_on(entry: dict[str, Any], path: tuple[str, ...]) -> str | None:
    """The parameter at `path` in `entry`, or at the part of it that holds the path (a whole secret input)."""
    value: Any = entry
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, str) and (found := PARAMETER.fullmatch(value)):
            return found[1]
    return None


def _entries(document: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for entry in document["resources"]:
        if entry["type"] == "Microsoft.Resources/deployments":
            yield from _entries(entry["properties"]["template"])
        else:
            yield entry


NAMES = {"group": "CANARY-GROUP-NAME-1f3a", "network": "CANARY-VNET-NAME-77c1"}
SECRET_NAMES_PROGRAM = f"""
import pulumi
from pulumi_azure_native import network, resources
rg = resources.ResourceGroup("rg", location="eastus", resource_group_name=pulumi.Output.secret("{NAMES["group"]}"))
vnet = network.VirtualNetwork("vnet", resource_group_name=rg.name, location="eastus",
    virtual_network_name=pulumi.Output.secret("{NAMES["network"]}"),
    address_space=network.AddressSpaceArgs(address_prefixes=["10.0.0.0/16"]))
network.Subnet("subnet", resource_group_name=rg.name, virtual_network_name=vnet.name, address_prefix="10.0.1.0/24")
"""


def test_a_secret_group_and_parent_name_are_parameters_wherever_the_template_names_them(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: names\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config: {}\n")
    (tmp_path / "__main__.py").write_text(SECRET_NAMES_PROGRAM)

    code = main(["export-arm", "dev", "--project", str(tmp_path)])
    out, err = capfdbinary.readouterr()
    document = json.loads(out)
    group, deployment = document["resources"]
    inner = deployment["properties"]["template"]
    network, subnet = inner["resources"]

    assert code == 0, err
    assert not [name for name, canary in NAMES.items() if canary.encode() in out + err]
    group_parameter = PARAMETER.fullmatch(group["name"])
    network_parameter = PARAMETER.fullmatch(network["name"])
    assert group_parameter and network_parameter
    assert deployment["resourceGroup"] == group["name"]  # deployed into the secret group, by its parameter
    assert group_parameter[1] in deployment["dependsOn"][0]
    assert network_parameter[1] in subnet["name"] and network_parameter[1] in subnet["dependsOn"][0]
    assert inner["parameters"][network_parameter[1]] == {"type": "secureString"}  # handed to the inner template
    assert deployment["properties"]["parameters"][network_parameter[1]] == {"value": network["name"]}


# --- preflight -----------------------------------------------------------------------------------


# The canaries the program puts in resource inputs, so the request Azure gets carries them (as the values
# of secure parameters): a secret input, a secret inside a structure, a declared secret read with
# config.get, a secret number, a secret resource group name, an existing resource's credential and
# another stack's secret output.
SENT = {
    "input",
    "nested-input",
    "declared-get-input",
    "declared-get-key",
    "number",
    "refused",
    "existing",
    "stack-output",
}


class EchoingAzure(Replay):
    """Azure quoting back every canary the request carried (an error message may quote any request
    value): Validate refuses with them in its messages and the secret group as an error's target; What-If
    lists that group by its id, its tags and a changed path, and fails quoting them too."""

    def __init__(self) -> None:
        super().__init__([{"method": "POST", "path": "/validate"}, {"method": "POST", "path": "/whatIf"}])
        self.echoed: set[str] = set()

    def send(self, request: Any, **kwargs: Any) -> Any:
        sent = request.body.decode() if isinstance(request.body, bytes) else str(request.body or "")
        carried = {name: c for name, c in CANARIES.items() if c in sent}
        self.echoed |= set(carried)
        quoted = ", ".join(f"'{c}'" for c in carried.values())
        group_id = f"/subscriptions/{SUBSCRIPTION}/resourceGroups/{SECRET_GROUP}"
        if self.exchanges[0]["path"] == "/validate":
            inner = {
                "code": "InvalidTemplate",
                "target": SECRET_GROUP,
                "message": f"Deployment template validation failed: the values {quoted} are not valid.",
                "additionalInfo": [{"type": "TemplateViolation", "info": {"values": list(carried.values())}}],
            }
            body = {
                "error": {
                    "code": "InvalidTemplateDeployment",
                    "message": f"The template deployment is not valid. See inner errors for details. {quoted}",
                    "details": [inner, {"code": "ResourceNotFound", "message": f"'{SECRET_GROUP}' not found."}],
                }
            }
            self.exchanges[0].update(status=400, body=body)
        else:
            change = {
                "resourceId": group_id,
                "changeType": "Create",
                "after": {"id": group_id, "name": SECRET_GROUP, "tags": carried},
                "delta": [{"path": f"tags.{c}", "propertyChangeType": "Create"} for c in carried.values()],
            }
            error = {"code": "InvalidTemplate", "message": f"What-If of {quoted} failed.", "target": group_id}
            body = {"status": "Failed", "error": error, "properties": {"changes": [change]}}
            self.exchanges[0].update(status=200, body=body)
        return super().send(request, **kwargs)


@pytest.fixture(scope="module")
def preflights(canaries: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """preflight --what-if --record of the canary stack in each format, Azure echoing the canaries."""
    directory = tmp_path_factory.mktemp("preflight")
    capture = Capture(directory)
    runs = {}
    for fmt in FORMATS:
        replay = EchoingAzure()

        def connection(args: Any, replay: Replay = replay) -> Connection:
            options = {"transport": RecordingTransport(replay), "polling_interval": 0}
            return Connection(args.subscription, args.cloud, StaticCredential(), options)

        record = directory / f"record-{fmt}.json"
        argv = ["preflight", "dev", "--project", canaries, *existing(canaries), "--subscription", SUBSCRIPTION]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(preflight, "make_connection", connection)
            ran = capture.run(*argv, "--what-if", "--record", record, "--format", fmt)
        assert replay.exchanges == [] and replay.echoed == SENT, "Azure was asked both questions, sent each secret"
        runs[fmt] = Ran(ran.code, ran.out, ran.err, ran.logged, ((str(record), record.read_bytes()),))
    return runs


@pytest.mark.parametrize("fmt", FORMATS)
def test_preflight_prints_logs_and_records_no_canary_azure_echoed(preflights: dict[str, Ran], fmt: str) -> None:
    ran = preflights[fmt]

    assert ran.code == 1, ran.err  # Azure's refusal is reported...
    assert b"InvalidTemplate" in ran.out and b"[secret]" in ran.out  # ...with what it quoted masked, not dropped
    assert ran.logged  # the client's request log was there to search
    assert ran.leaked() == set()
    if fmt in ("json", "sarif"):
        json.loads(ran.out)


# --- the fleet: check --root, its cache, shards and merge ------------------------------------------


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Ran]:
    """Every fleet path over a root holding the canary project: a check that plans (and fills the cache),
    checks served from the cache in every format, one planned on workers, shard files and their merge."""
    directory = tmp_path_factory.mktemp("fleet")
    (directory / "root").mkdir()
    project = write_project(directory / "root" / "canaries")
    root, cache = directory / "root", directory / "cache"
    capture = Capture(directory)
    check = ["check", "--root", root, *existing(project)]
    runs = {"check --root (planned)": capture.run(*check, "--cache-dir", cache)}
    for fmt in FORMATS:
        runs[f"check --root --format {fmt} (cached)"] = capture.run(*check, "--cache-dir", cache, "--format", fmt)
    runs["check --root --jobs 2 --no-cache"] = capture.run(*check, "--no-cache", "--jobs", "2", "--format", "sarif")
    shards = []
    for index in (1, 2):
        ran = capture.run(*check, "--cache-dir", cache, "--shard", f"{index}/2")
        shards.append(directory / f"shard-{index}.jsonl")
        shards[-1].write_bytes(ran.out)
        runs[f"check --shard {index}/2"] = ran
    for fmt in FORMATS:
        runs[f"merge --format {fmt}"] = capture.run("merge", *shards, "--format", fmt)
    runs["the cache directory"] = Ran(0, b"", b"", files=files_under(cache))
    return runs


FLEET_RUNS = [
    "check --root (planned)",
    *(f"check --root --format {fmt} (cached)" for fmt in FORMATS),
    "check --root --jobs 2 --no-cache",
    "check --shard 1/2",
    "check --shard 2/2",
    *(f"merge --format {fmt}" for fmt in FORMATS),
    "the cache directory",
]


@pytest.mark.parametrize("name", FLEET_RUNS)
def test_the_fleet_prints_stores_and_merges_no_canary(fleet: dict[str, Ran], name: str) -> None:
    ran = fleet[name]

    assert ran.code in (0, 1), ran.err
    assert ran.out or ran.files  # a report, a shard, or the cache's records
    assert ran.leaked() == set()


def test_the_fleet_cache_holds_the_stacks_records_masked(fleet: dict[str, Ran]) -> None:
    """Not empty by accident: the cache holds both stacks' records, secrets in them as [secret]."""
    records = [json.loads(data) for _, data in fleet["the cache directory"].files]
    stacks = {document["record"]["stack"] for document in records if "stack" in document["record"]}

    assert stacks == {"canaries:dev", "canaries:prod"}
    assert all(b"[secret]" in data for _, data in fleet["the cache directory"].files if b'"stack"' in data)
