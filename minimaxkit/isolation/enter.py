"""Inside the sandbox: ``python -I -S enter.py SRC DEST [--uid UID] -- CMD...`` copies the regular
files of the submission's folder into its scratch folder (no link followed, no special file, at
most :data:`MAX_FILES`), becomes the unprivileged ``UID`` if given, then ``CMD``. Standard
library only: it runs by its path, without the kit's packages (every kernel's start waits
for it).

>>> import tempfile, pathlib
>>> src, dest = (pathlib.Path(tempfile.mkdtemp()) for _ in range(2))
>>> (src / "a.py").write_text("x = 1")
5
>>> (src / "link").symlink_to("/etc/passwd")
>>> copy_regular(src, dest)
['link: a symbolic link, not copied']
>>> sorted(p.name for p in dest.iterdir())
['a.py']
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

__all__ = ["copy_regular", "become", "main", "MAX_FILES"]

MAX_FILES = 2_000


def copy_regular(src: Path, dest: Path) -> list[str]:
    """Copy the regular files and folders below ``src`` into ``dest``; what was left out, why."""
    notes: list[str] = []
    count = 0
    for folder, dirs, files in os.walk(src, followlinks=False):
        rel = Path(folder).relative_to(src)
        for name in sorted(dirs):
            st = os.lstat(Path(folder) / name)
            if stat.S_ISDIR(st.st_mode):
                (dest / rel / name).mkdir(exist_ok=True)
            else:  # a link to a folder: os.walk lists it among the folders
                notes.append(f"{rel / name}: a symbolic link, not copied")
        dirs[:] = [d for d in dirs if not os.path.islink(Path(folder) / d)]
        for name in sorted(files):
            path = Path(folder) / name
            st = os.lstat(path)
            if not stat.S_ISREG(st.st_mode):
                kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
                notes.append(f"{rel / name}: {kind}, not copied")
                continue
            count += 1
            if count > MAX_FILES:
                notes.append(f"{rel / name}: more than {MAX_FILES} files, not copied")
                continue
            try:
                fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
                with os.fdopen(fd, "rb") as fin, open(dest / rel / name, "xb") as fout:
                    while chunk := fin.read(1 << 20):
                        fout.write(chunk)
            except OSError as err:
                notes.append(f"{rel / name}: not copied ({err.strerror})")
    return notes


def become(uid: int, dest: Path) -> None:
    """Give ``dest`` (the scratch folder) to ``uid`` and become that user, for good: no
    group, no capability left (the sandbox of a grader that runs as root)."""
    for folder, dirs, files in os.walk(dest):
        for name in [folder, *(os.path.join(folder, n) for n in dirs + files)]:
            os.lchown(name, uid, uid)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def main(argv: list[str] | None = None) -> int:
    """Copy the submission, become ``UID`` if given, then exec the command (2 and a usage line on a
    wrong command line)."""
    args = sys.argv[1:] if argv is None else argv
    uid = None
    if len(args) > 4 and args[2] == "--uid" and args[3].isdigit():
        uid, args = int(args[3]), args[:2] + args[4:]
    if len(args) < 4 or args[2] != "--":
        print("usage: python enter.py SRC DEST [--uid UID] -- CMD...", file=sys.stderr)
        return 2
    src, dest, cmd = Path(args[0]), Path(args[1]), args[3:]
    for note in copy_regular(src, dest):
        print(f"minimaxkit: {note}", file=sys.stderr)
    if uid is not None:
        become(uid, dest)
    os.chdir(dest)
    os.execvp(cmd[0], cmd)
    return 1  # pragma: no cover - execvp does not return


if __name__ == "__main__":
    sys.exit(main())
