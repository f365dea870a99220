"""docs/operations.md's install and configure steps, run as written against the repository's
files, under a temporary root instead of / and without systemd: the from-source install, and
the package's "add an APNs key" step on the package's configuration. Each ends with the
documented `push-relay check-config`, which must pass; the unit's `LoadCredential=` lines must
name files the steps put in place.

The from-source install installs a binary with the Swift runtime linked in (`static_binary`), and
the installed relay must run with the toolchain out of sight: no library or RUNPATH into it, and
`--version`, `check-config` and `serve` answering `/health` with the toolchain's directory covered
by an empty file system and an empty environment (docs/operations.md builds with
`--static-swift-stdlib` because the unit's `ProtectHome=` hides a toolchain under a home, and a
removed or upgraded toolchain must not take the service down). The documents it installs have no
dead relative links, and the unit's `Documentation=` is one of them.

What cannot run here is left out and said so: `swift build` (the built binary stands in: its flags
are checked), `systemctl`, `sudoedit` (the test makes the edit the comment names), and `--probe`
(Apple's servers). `sudo` is dropped: the steps run as the test's user."""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
import requests

from cluster import RELAY_BIN, ROOT
from static_binary import hiding_toolchain, static_binary, toolchain_dependencies

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


def run_steps(commands, root: Path, workdir: Path, binary: Path = RELAY_BIN, edit=None) -> list:
    """Runs each command with / moved to `root`; returns the outputs of the check-config steps,
    which run `binary` (the installed one, for an install). `edit(path)` stands in for sudoedit."""
    checks = []
    for command in commands:
        command = re.sub(r"^sudo ", "", command).replace("| sudo ", "| ")
        if command.startswith("sudoedit ") and edit is not None:
            edit(Path(command.split()[1].replace("/etc/push-relay", f"{root}/etc/push-relay")))
            continue
        if command.startswith(SKIPPED):
            continue
        command = (command.replace("/etc/push-relay", f"{root}/etc/push-relay")
                   .replace("/etc/systemd/system", f"{root}/etc/systemd/system")
                   .replace("/usr/local/", f"{root}/usr/local/"))
        is_check = re.match(r"^\S*push-relay check-config ", command) is not None
        if is_check:
            command = re.sub(r"^\S*push-relay check-config", f"{binary} check-config", command)
            command = command.replace(" --probe", "") + f" --credentials-dir {root}/etc/push-relay/credentials"
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=workdir, capture_output=True,
                                text=True, timeout=120, env={**os.environ, "CREDENTIALS_DIRECTORY": ""})
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        if is_check:
            checks.append(result.stdout + result.stderr)
    return checks


def edit_the_example(path: Path):
    """What the sudoedit step's comment names: app_id, apns.topic, key_id, team_id."""
    text = path.read_text()
    for placeholder, value in (("00000000-0000-4000-8000-000000000001", str(uuid.uuid4()).upper()),
                               ("com.example.chat", "com.acme.chat"), ("ABC123DEFG", "K3Y4567890"),
                               ("DEF123GHIJ", "T3AM456789")):
        assert placeholder in text, f"the example no longer holds {placeholder}"
        text = text.replace(placeholder, value)
    path.write_text(text)


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


@pytest.fixture(scope="module")
def static_relay(tmp_path_factory):
    """The binary the from-source install installs: linked once per run (`static_binary`)."""
    if not RELAY_BIN.exists():
        pytest.skip(f"{RELAY_BIN} not built (scripts/test builds it)")
    return static_binary(tmp_path_factory.mktemp("static"))


@pytest.fixture
def installed_from_source(workdir, static_relay):
    """The from-source steps run under workdir/root, a statically linked build standing in for
    the release build; returns (root, the check-config step's output)."""
    build = [c for c in shell_block("## Install from source") if c.startswith("swift build")]
    assert build and all("--static-swift-stdlib" in c and "-c release" in c for c in build), build
    built = workdir / ".build" / "release"
    built.mkdir(parents=True)
    os.symlink(static_relay, built / "push-relay")
    root = workdir / "root"
    for directory in ("usr/local/bin", "etc/systemd/system"):
        (root / directory).mkdir(parents=True)
    checks = run_steps(shell_block("## Install from source"), root, workdir, binary=root / "usr/local/bin/push-relay",
                       edit=edit_the_example)
    assert len(checks) == 1, checks
    return root, checks[0]


def test_the_install_from_source_steps_end_in_a_passing_check(installed_from_source):
    root, check = installed_from_source
    assert "configuration OK" in check and "warning" not in check, check
    credentials = root / "etc/push-relay/credentials"
    assert oct(credentials.stat().st_mode & 0o777) == "0o700"
    for name, path in loaded_credentials([root / "etc/systemd/system/push-relay.service"]).items():
        assert path == f"/etc/push-relay/credentials/{name}"
        assert (credentials / name).exists(), f"the unit loads {name}, which the steps did not put in place"
        assert (credentials / name).stat().st_mode & 0o077 == 0, f"{name} is readable by others"


def test_the_installed_documents_have_no_dead_links(installed_from_source):
    root, _ = installed_from_source
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


def test_the_installed_binary_runs_with_the_toolchain_out_of_sight(installed_from_source, workdir):
    root, _ = installed_from_source
    binary = root / "usr/local/bin/push-relay"
    assert toolchain_dependencies(binary) == [], "the installed relay needs the Swift toolchain"
    if hiding_toolchain(["true"]) is None:
        pytest.skip("no mount namespace here (neither root nor user namespaces): the toolchain cannot be hidden")
    if toolchain_dependencies(RELAY_BIN):  # the hiding is real: the debug build needs what it hides
        control = subprocess.run(hiding_toolchain([str(RELAY_BIN), "--version"]), capture_output=True, text=True, timeout=60)
        assert control.returncode == 127, f"the debug build started with the toolchain hidden: {control}"
    version = subprocess.run(hiding_toolchain([str(binary), "--version"]), capture_output=True, text=True, timeout=60)
    assert version.returncode == 0 and version.stdout.strip(), version
    config = root / "etc/push-relay/push-relay.yaml"
    credentials = root / "etc/push-relay/credentials"
    check = subprocess.run(hiding_toolchain([str(binary), "check-config", "--config", str(config), "--credentials-dir",
                                             str(credentials)]), capture_output=True, text=True, timeout=60)
    assert check.returncode == 0 and "configuration OK" in check.stdout, check
    # serve, as the unit runs it (the credentials where systemd would put them), on a free port.
    serving = workdir / "serve.yaml"
    serving.write_text(config.read_text().replace("port: 8080", "port: 0")
                       .replace("/var/lib/push-relay/push-relay.sqlite", str(workdir / "relay.sqlite")))
    command = hiding_toolchain([str(binary), "serve", "--config", str(serving)],
                               environment={"CREDENTIALS_DIRECTORY": str(credentials)})
    serve_and_stop(command, workdir / "serve.log")


def serve_and_stop(command, log_path: Path):
    """Starts `command` (a `push-relay serve`), asks /health, stops it with SIGTERM: exit 0."""
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log)
    try:
        deadline = time.monotonic() + 60
        line = b""
        while b"listening on" not in line:
            assert time.monotonic() < deadline and process.poll() is None, log_path.read_text()
            line = process.stdout.readline()
        url = line.decode().split("listening on ")[1].strip()
        assert requests.get(f"{url}/health", timeout=10).json() == {"status": "ok"}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=40) == 0, log_path.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_packages_apns_steps_end_in_a_passing_check(workdir):
    root = workdir / "root"
    # What installing the package made (packaging/deb/postinst: root:push-relay 0750; the
    # test's own user stands in for root, and without root's allowance for its group, 0700).
    (root / "etc/push-relay/credentials").mkdir(parents=True, mode=0o750 if os.geteuid() == 0 else 0o700)
    (root / "etc/systemd/system").mkdir(parents=True)
    config = root / "etc/push-relay/push-relay.yaml"
    shutil.copyfile(ROOT / "packaging/deb/push-relay.yaml", config)
    token = root / "etc/push-relay/credentials/api-token"
    token.write_text(os.urandom(32).hex())
    os.chmod(token, 0o640)
    commands = shell_block("### APNs", containing="apns-key.conf")
    # sudoedit: "app_id; uncomment apns: topic, key_id, team_id".
    text, active = [], False
    for line in config.read_text().splitlines():
        active = active or line == "    # apns:"
        text.append("    " + line[6:] if active and line.startswith("    # ") else line)
    config.write_text("\n".join(text) + "\n")
    edit_the_example(config)
    if os.geteuid() != 0:
        os.chmod(token, 0o600)  # root's 0640 is fine; the test's user's is not
    checks = run_steps(commands, root, workdir)
    assert len(checks) == 1 and "configuration OK" in checks[0] and "warning" not in checks[0], checks
    assert "topic com.acme.chat" in checks[0]
    drop_in = root / "etc/systemd/system/push-relay.service.d/apns-key.conf"
    # (The steps wrote it under the temporary root, paths and all.)
    assert loaded_credentials([drop_in]) == {"apns-key.p8": f"{root}/etc/push-relay/credentials/apns-key.p8"}
    assert (root / "etc/push-relay/credentials/apns-key.p8").exists()
