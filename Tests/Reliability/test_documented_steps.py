"""docs/operations.md's install and configure steps, run as written against the repository's
files, under a temporary root instead of / and without systemd: the from-source install, and
the package's "add an APNs key" step on the package's configuration. Each ends with the
documented `push-relay check-config`, which must pass; the unit's `LoadCredential=` lines must
name files the steps put in place.

What cannot run here is left out and said so: `swift build` (the built binary stands in),
`systemctl`, `sudoedit` (the test makes the edit the comment names), and `--probe` (Apple's
servers). `sudo` is dropped: the steps run as the test's user."""

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cluster import RELAY_BIN, ROOT

OPERATIONS = ROOT / "docs" / "operations.md"
SKIPPED = ("swift build", "systemctl", "sudoedit", "git pull")


def shell_block(heading: str, containing: str = "") -> list:
    """The commands of the first ```sh block under `heading` (that contains `containing`),
    continuation lines joined, comments dropped."""
    text = OPERATIONS.read_text()
    start = text.index("\n" + heading + "\n")
    for block in re.findall(r"```sh\n(.*?)```", text[start:], re.S):
        if containing in block:
            joined = re.sub(r"\\\n\s*", "", block)
            return [re.sub(r"\s+#\s.*$", "", line).strip() for line in joined.splitlines() if line.strip()]
    raise AssertionError(f"no sh block under {heading!r} containing {containing!r}")


def run_steps(commands, root: Path, workdir: Path) -> list:
    """Runs each command with / moved to `root`; returns the outputs of the check-config steps."""
    checks = []
    for command in commands:
        command = re.sub(r"^sudo ", "", command).replace("| sudo ", "| ")
        if command.startswith(SKIPPED):
            continue
        command = (command.replace("/etc/push-relay", f"{root}/etc/push-relay")
                   .replace("/etc/systemd/system", f"{root}/etc/systemd/system")
                   .replace("/usr/local/", f"{root}/usr/local/")
                   .replace(".build/release/push-relay", str(RELAY_BIN)))
        is_check = re.match(r"^\S*push-relay check-config ", command) is not None
        if is_check:
            command = re.sub(r"^\S*push-relay check-config", f"{RELAY_BIN} check-config", command)
            command = command.replace(" --probe", "") + f" --credentials-dir {root}/etc/push-relay/credentials"
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=workdir, capture_output=True,
                                text=True, timeout=120, env={**os.environ, "CREDENTIALS_DIRECTORY": ""})
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        if is_check:
            checks.append(result.stdout + result.stderr)
    return checks


def loaded_credentials(unit_files) -> dict:
    names = {}
    for unit in unit_files:
        for line in unit.read_text().splitlines():
            if line.startswith("LoadCredential="):
                name, _, path = line[len("LoadCredential="):].partition(":")
                names[name] = path
    return names


@pytest.fixture
def workdir(tmp_path):
    """The repository's files where the steps expect them, and the key from Apple."""
    if not RELAY_BIN.exists():
        pytest.skip(f"{RELAY_BIN} not built (scripts/test builds it)")
    for name in ("Config", "systemd", "scripts", "docs", "openapi", "README.md"):
        (tmp_path / name).symlink_to(ROOT / name)
    shutil.copyfile(ROOT / "certs/dev/AuthKey_DEVKEY1234.p8", tmp_path / "AuthKey_ABC123DEFG.p8")
    os.chmod(tmp_path / "AuthKey_ABC123DEFG.p8", 0o600)
    (tmp_path / "root").mkdir()
    return tmp_path


def test_the_install_from_source_steps_end_in_a_passing_check(workdir):
    root = workdir / "root"
    for directory in ("usr/local/bin", "etc/systemd/system"):
        (root / directory).mkdir(parents=True)
    checks = run_steps(shell_block("## Install from source"), root, workdir)
    assert len(checks) == 1 and "configuration OK" in checks[0], checks
    credentials = root / "etc/push-relay/credentials"
    assert oct(credentials.stat().st_mode & 0o777) == "0o700"
    for name, path in loaded_credentials([root / "etc/systemd/system/push-relay.service"]).items():
        assert path == f"/etc/push-relay/credentials/{name}"
        assert (credentials / name).exists(), f"the unit loads {name}, which the steps did not put in place"
        assert (credentials / name).stat().st_mode & 0o077 == 0, f"{name} is readable by others"
    # The documents: the unit's Documentation= is installed, and no relative link between them is dead.
    unit = (root / "etc/systemd/system/push-relay.service").read_text()
    target = re.search(r"^Documentation=file://(\S+)$", unit, re.M).group(1)
    assert (root / target.lstrip("/")).is_file(), f"the unit's Documentation= {target} was not installed"
    spec = importlib.util.spec_from_file_location("check_links", ROOT / "scripts" / "check-links.py")
    check_links = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(check_links)
    installed = sorted((root / "usr/local/share/doc/push-relay").rglob("*.md"))
    assert len(installed) >= 8, installed
    problems = [problem for path in installed for problem in check_links.check(path)]
    assert problems == [], "\n".join(problems)


def test_the_packages_apns_steps_end_in_a_passing_check(workdir):
    root = workdir / "root"
    # What installing the package made (packaging/deb/postinst).
    (root / "etc/push-relay/credentials").mkdir(parents=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    config = root / "etc/push-relay/push-relay.yaml"
    shutil.copyfile(ROOT / "packaging/deb/push-relay.yaml", config)
    token = root / "etc/push-relay/credentials/api-token"
    token.write_text(os.urandom(32).hex())
    os.chmod(token, 0o640)
    commands = shell_block("### APNs", containing="apns-key.conf")
    # sudoedit: "uncomment apns: topic, key_id, team_id".
    text, active = [], False
    for line in config.read_text().splitlines():
        active = active or line == "    # apns:"
        text.append("    " + line[6:] if active and line.startswith("    # ") else line)
    config.write_text("\n".join(text) + "\n")
    checks = run_steps(commands, root, workdir)
    assert len(checks) == 1 and "configuration OK" in checks[0], checks
    assert "topic com.example.chat" in checks[0]
    drop_in = root / "etc/systemd/system/push-relay.service.d/apns-key.conf"
    # (The steps wrote it under the temporary root, paths and all.)
    assert loaded_credentials([drop_in]) == {"apns-key.p8": f"{root}/etc/push-relay/credentials/apns-key.p8"}
    assert (root / "etc/push-relay/credentials/apns-key.p8").exists()
