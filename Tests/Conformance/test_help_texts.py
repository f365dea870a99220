"""Each subcommand's `--help` and the documents state the same facts the same way: the exit
statuses (docs/operations.md's table of commands, its "Check" and "It does not start" sections,
docs/tools.md for `send`) and PostgreSQL's TLS modes (`migrate-store --help`, operations.md,
Config/push-relay.yaml). The built binary's help is read, so a code change that the documents
miss (or the reverse) fails here."""

import re
import subprocess

import pytest

from conftest import BINARY, ROOT

OPERATIONS = (ROOT / "docs" / "operations.md").read_text()
TOOLS = (ROOT / "docs" / "tools.md").read_text()
EXAMPLE = (ROOT / "Config" / "push-relay.yaml").read_text()
SUBCOMMANDS = ["serve", "check-config", "send", "test-push", "migrate-store", "end-console-sessions"]


def flat(text: str) -> str:
    """Markdown or help text as plain words: no code marks or emphasis, one space between words."""
    return re.sub(r"\s+", " ", re.sub(r"[`*]", "", text)).strip()


def help_text(subcommand: str) -> str:
    if not BINARY.exists():
        pytest.skip(f"{BINARY} not built (scripts/test builds it)")
    result = subprocess.run([str(BINARY), subcommand, "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def statuses(sentence: str) -> dict:
    """`0 usable; 1 a probe failed; …` as {0: "usable", 1: "a probe failed", …}."""
    sentence = flat(sentence).rstrip(".")
    parts = re.split(r"; (?=\d+ )", sentence)
    found = {}
    for part in parts:
        match = re.fullmatch(r"(\d+) (.+)", part.strip())
        assert match, f"not '<status> <meaning>': {part!r} in {sentence!r}"
        found[int(match.group(1))] = match.group(2)
    return found


def help_statuses(subcommand: str) -> dict:
    paragraphs = re.split(r"\n\s*\n", help_text(subcommand))
    sentence = next(p for p in paragraphs if p.startswith("Exit status:"))
    return statuses(sentence[len("Exit status:"):])


def table_statuses(subcommand: str) -> dict:
    row = next(line for line in OPERATIONS.splitlines() if line.startswith(f"| `push-relay {subcommand} "))
    cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", row)[1:-1]]
    return statuses(cells[2].replace("\\|", "|"))


@pytest.mark.parametrize("subcommand", SUBCOMMANDS)
def test_the_commands_table_gives_each_exit_status_as_the_help_does(subcommand):
    assert table_statuses(subcommand) == help_statuses(subcommand)


def test_check_and_send_say_it_again_in_the_same_words():
    check = OPERATIONS[OPERATIONS.index("\n## Check\n"):OPERATIONS.index("\n## Run\n")]
    assert statuses(re.search(r"Exit status: (.*?\.)(?: [A-Z]|\n\n)", check, re.S).group(1)) == help_statuses("check-config")
    send = TOOLS[TOOLS.index("## `push-relay send`"):TOOLS.index("## `apns-mock`")]
    assert statuses(re.search(r"Exit status: (.*?)\. Other options", send, re.S).group(1)) == help_statuses("send")


def test_it_does_not_start_lists_serves_statuses():
    section = OPERATIONS[OPERATIONS.index("### It does not start"):OPERATIONS.index("## Security")]
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", section, re.M)}
    assert documented and documented <= set(help_statuses("serve")) - {0}, documented


@pytest.mark.parametrize("source", ["migrate-store --help", "operations.md", "Config/push-relay.yaml"])
def test_postgresql_tls_modes_are_described_as_the_code_does(source):
    if source == "migrate-store --help":
        text = help_text("migrate-store")
        text = text[text.index("--tls for a URL"):]
    elif source == "operations.md":
        text = OPERATIONS[OPERATIONS.index("**TLS.**"):]
        text = text[:text.index("\n\n")]
    else:
        text = "\n".join(line.lstrip(" #") for line in EXAMPLE.splitlines() if line.lstrip().startswith("#   tls:")
                         or line.lstrip().startswith("#                       #"))
    text = flat(text)
    # PostgresStoreConfiguration.TLSMode: require verifies as verify-full does; prefer does not verify.
    assert re.search(r"require verifies (exactly )?as verify-full", text), text
    assert re.search(r"prefer[^.;]*(does not verify|without verifying|not verified)", text), text
    assert re.search(r"verify-full[^.;]*default|default[^.;]*verify-full", text), text
    assert re.search(r"disable[^;]{0,80}this machine|this machine[^;]{0,80}disable", text), text
    assert not re.search(r"require[^.;)]*(without verifying|unverified|does not verify|not verified)", text), text
