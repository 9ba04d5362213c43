#!/usr/bin/env python3
"""Prints, for each C++ file given, a key that changes whenever clang-tidy's verdict on it could.

The key hashes the clang-tidy version, the root .clang-tidy, the file's compile command and the
path and content of every file the compiler reads for it (from `-M`), with the checkout's root
replaced by a placeholder so another clone of the same tree gets the same keys. check-tidy.sh
skips a file whose key it has seen pass before: this is ccache's idea applied to clang-tidy,
which has no cache of its own.

Usage: tidy-cache-key.py BUILD_DIR FILE...   (prints "KEY FILE" per line; FILE relative to root)
"""
import hashlib
import json
import os
import shlex
import subprocess
import sys


def dependencies(entry):
    """Files the compiler reads for this translation unit, from the build's own command."""
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    kept = []
    skip = False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if arg in ("-c", "-MD", "-MMD"):
            continue
        kept.append(arg)
    out = subprocess.run(kept + ["-M"], cwd=entry["directory"], check=True,
                         capture_output=True, text=True).stdout
    files = out.replace("\\\n", " ").split(":", 1)[1].split()
    return sorted(set(os.path.normpath(os.path.join(entry["directory"], f)) for f in files))


def main():
    build, files = sys.argv[1], sys.argv[2:]
    root = os.getcwd()
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        entries = {os.path.normpath(e["file"]): e for e in json.load(f)}
    version = subprocess.run(["clang-tidy", "--version"], check=True, capture_output=True,
                             text=True).stdout
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()
    for rel in files:
        entry = entries[os.path.normpath(os.path.join(root, rel))]
        h = hashlib.sha256()
        h.update(version.encode())
        h.update(config)
        h.update(entry.get("command", " ".join(entry.get("arguments", []))).replace(root, "@ROOT")
                 .encode())
        for dep in dependencies(entry):
            h.update(dep.replace(root, "@ROOT").encode() + b"\0")
            with open(dep, "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
        print(h.hexdigest(), rel)


if __name__ == "__main__":
    main()
