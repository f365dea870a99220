"""scripts/check-links.py, which scripts/test runs on every tracked Markdown file: GitHub's anchor
rules, and a broken file or anchor reported while links it cannot check are left alone."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("check_links", ROOT / "scripts" / "check-links.py")
check_links = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_links)


def test_anchors_follow_githubs_rules():
    assert check_links.slug("Quick start (no Apple, Google or Huawei credentials)") == \
        "quick-start-no-apple-google-or-huawei-credentials"
    assert check_links.slug("`push-relay send` — one notification by hand") == "push-relay-send--one-notification-by-hand"
    assert check_links.slug("Multi-device users (`apps[].multi_device`)") == "multi-device-users-appsmulti_device"
    assert check_links.slug("See [the API](rest-api.md)") == "see-the-api"


def test_broken_files_and_anchors_are_reported_and_the_rest_left_alone(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## Twice\n\n## Twice\n\n<a id=\"custom\"></a>\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[ok](other.md) [ok](other.md#twice-1) [ok](other.md#custom) [ok](#page) [web](https://example.com/x#y)\n"
        "[gone](missing.md) [bad](other.md#nowhere) [bad](#nowhere)\n\n"
        "```\n[in code](missing-too.md)\n```\n"
        "`[in a span](missing-three.md)`\n\n"
        "[ref]: other.md#twice\n[badref]: gone.md\n")
    problems = check_links.check(page)
    assert [p.split(": ", 1)[1] for p in problems] == [
        "missing.md: no such file missing.md",
        "other.md#nowhere: no heading #nowhere in " + str(Path(check_links.os.path.relpath(tmp_path / "other.md", ROOT))),
        "#nowhere: no heading #nowhere in " + str(Path(check_links.os.path.relpath(page, ROOT))),
        "gone.md: no such file gone.md",
    ], problems


def test_every_tracked_markdown_file_passes():
    assert check_links.main([]) == 0
