"""Configuration loading: files, profiles, validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from speclint.common.findings import Severity
from speclint.model.config import DEFAULT_INCLUDE, ConfigError, config_from_table, load_config


def test_defaults_without_a_file(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert (
        config.include == DEFAULT_INCLUDE
        and config.fail_on is Severity.ERROR
        and config.source is None
    )


def test_pyproject_tool_table_and_speclint_toml_precedence(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.speclint]\nfail-on = "warning"\n[tool.speclint.rules]\nundeclared-tag = "off"\n'
    )
    config = load_config(tmp_path)
    assert config.fail_on is Severity.WARNING and config.rule_severity == {"undeclared-tag": None}
    (tmp_path / "speclint.toml").write_text('fail-on = "info"\n')
    assert load_config(tmp_path).fail_on is Severity.INFO


def test_profile_is_merged_under_the_file(tmp_path: Path) -> None:
    config = config_from_table({"profile": "openwop", "exclude": ["drafts/**"]})
    assert "RFCS/**/*.md" in config.include
    assert config.exclude[0] == "drafts/**"  # the file's own list replaces the profile's
    assert config.asyncapi_perspective == "client"
    with pytest.raises(ConfigError, match="unknown profile"):
        config_from_table({"profile": "nope"})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"colour": True}, "unknown key"),
        ({"fail-on": "fatal"}, "fail-on"),
        ({"include": "schemas/*.json"}, "list of glob strings"),
        ({"rules": {"undeclared-tag": "loud"}}, "rules.undeclared-tag"),
        ({"roles": {"a.json": "sometimes"}}, "unknown role"),
        ({"asyncapi-perspective": "broker"}, "asyncapi-perspective"),
    ],
)
def test_bad_configuration_is_a_clear_error(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_table(table, "speclint.toml")
