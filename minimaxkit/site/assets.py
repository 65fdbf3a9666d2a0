"""The site's own copies of the JavaScript and styles its pages load: the widget renderer
(``@jupyter-widgets/html-manager``), require.js, anywidget's front end and MathJax, from
``node_modules`` as ``package-lock.json`` pins them (``npm ci``), and JupyterLab's
stylesheet as nbconvert ships it. Nothing is fetched: a missing or different package is an
error that says to run ``npm ci``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

__all__ = ["NPM_FILES", "Asset", "copy_assets", "check_pins", "AssetError"]


class AssetError(RuntimeError):
    """A file the site needs is missing, or not the version package-lock.json pins."""


@dataclass(frozen=True)
class Asset:
    """Files of one npm package copied into the site: ``(source glob, destination)`` pairs,
    the source relative to the package's folder, the destination to the site's."""

    package: str
    files: tuple[tuple[str, str], ...]


#: What the pages load, and where it goes in the site.
NPM_FILES = (
    Asset("requirejs", (("require.js", "js/require.js"),)),
    # the renderer, and the icon fonts its stylesheet names (woff2 first: what browsers fetch)
    Asset("@jupyter-widgets/html-manager", (("dist/embed-amd.js", "js/embed-amd.js"),
                                            ("dist/*.woff2", "js/"), ("dist/*.woff", "js/"))),
    # an AMD module (define(["@jupyter-widgets/base"], ...)): require.js loads it as "anywidget"
    Asset("anywidget", (("dist/index.js", "js/anywidget.js"),)),
    Asset("mathjax", (("es5/tex-chtml.js", "js/mathjax/tex-chtml.js"),
                      ("es5/output/chtml/fonts/woff-v2/*.woff",
                       "js/mathjax/output/chtml/fonts/woff-v2/"))),
)


def check_pins(repo: Path) -> dict[str, str]:
    """The version of each package of :data:`NPM_FILES` in ``repo``'s node_modules, checked
    against ``repo``'s package-lock.json."""
    lock_file = repo / "package-lock.json"
    try:
        lock = json.loads(lock_file.read_text(encoding="utf-8"))["packages"]
    except (OSError, ValueError, KeyError) as err:
        raise AssetError(f"{lock_file} cannot be read ({err})") from None
    versions = {}
    for asset in NPM_FILES:
        key = f"node_modules/{asset.package}"
        pinned = lock.get(key, {}).get("version")
        if pinned is None:
            raise AssetError(f"{lock_file} pins no {asset.package}: add it to package.json")
        try:
            installed = json.loads((repo / key / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            raise AssetError(f"{repo / key} is missing: run `npm ci` in {repo}") from None
        if installed != pinned:
            raise AssetError(f"{asset.package} {installed} is installed, package-lock.json pins "
                             f"{pinned}: run `npm ci` in {repo}")
        versions[asset.package] = pinned
    return versions


def _lab_css() -> str:
    """JupyterLab's stylesheet and light theme, as nbconvert's ``lab`` template inlines them
    into every page (here: one file for all pages)."""
    from nbconvert.exporters.templateexporter import TemplateExporter

    for base in TemplateExporter().template_paths:
        static = Path(base) / "lab" / "static"
        if (static / "index.css").is_file():
            return "\n".join((static / name).read_text(encoding="utf-8")
                             for name in ("index.css", "theme-light.css"))
    raise AssetError("nbconvert's lab template (static/index.css) was not found")


def copy_assets(repo: Path, site: Path) -> dict[str, str]:
    """Copy every asset into ``site``; return the npm packages' versions."""
    versions = check_pins(repo)
    for asset in NPM_FILES:
        folder = repo / "node_modules" / asset.package
        for pattern, dest in asset.files:
            sources = sorted(folder.glob(pattern))
            if not sources:
                raise AssetError(f"{folder}/{pattern} matches no file: run `npm ci` in {repo}")
            for src in sources:
                target = site / dest / src.name if dest.endswith("/") else site / dest
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, target)
        licence = folder / "LICENSE"
        if licence.is_file():
            out = site / "js" / "licenses" / f"{asset.package.replace('/', '__')}.txt"
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(licence, out)
    (site / "static").mkdir(parents=True, exist_ok=True)
    (site / "static" / "lab.css").write_text(_lab_css(), encoding="utf-8")
    (site / "static" / "site.css").write_text(
        (Path(__file__).parent / "templates" / "site.css").read_text(encoding="utf-8"),
        encoding="utf-8")
    return versions
