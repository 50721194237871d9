"""A program that requires a config key its stack file lacks stops with one line: Pulumi's own message spans two
(`Missing required configuration variable '...'` then a tab and `please set a value using the command ...`,
pulumi/pulumi `sdk/python/lib/pulumi/config.py`), and the error printed both, the second on a line of its own
(a public program run without the key its README sets: pulumi/examples' azure-py-oidc-provider-pulumi-cloud)."""

from __future__ import annotations

from pathlib import Path

import pytest
from azure_gpu_stacks.engine.cli import main
from azure_gpu_stacks.engine.run.plan import one_line


def test_the_sdk_s_two_line_message_is_one_line() -> None:
    message = "Missing required configuration variable 'p:env'\n\tplease set a value using the command `pulumi config`"

    assert one_line(message) == (
        "Missing required configuration variable 'p:env' please set a value using the command `pulumi config`"
    )


def test_a_missing_config_key_is_one_line_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "Pulumi.dev.yaml").write_text("config:\n  azure-native:location: westeurope\n")
    (tmp_path / "__main__.py").write_text('import pulumi\npulumi.Config().require("environmentName")\n')

    assert main(["check", "dev", "--project", str(tmp_path)]) == 2
    err = capsys.readouterr().err

    assert err.count("\n") == 1 and "\t" not in err
    assert "Missing required configuration variable 'team:environmentName'" in err
    assert "pulumi config set team:environmentName <value>" in err
