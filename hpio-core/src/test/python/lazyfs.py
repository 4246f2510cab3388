#!/usr/bin/python3
"""lazyfs.py: a LazyFS-like FUSE file system for hpio's reliability suite (issue 9).

It mirrors a backing directory, but keeps every write that was not fsynced in memory, like a kernel page cache
that a power cut would empty, and it can fail chosen operations with EIO, so that the io_uring engine sees real
errors coming from the kernel (no syscall-level injector reaches io_uring).

    /usr/bin/python3 lazyfs.py BACKING MOUNTPOINT --trash DIR --stats FILE

Commands are written (one per write) to MOUNTPOINT/.lazyfs-control:
    crash                      drop every unsynced write and undo every unsynced create, rename and unlink
                               (a power cut; the backing directory is then what the "disk" holds)
    ignore-fsync on|off        on: fsync and fdatasync succeed without persisting anything (the no-op force
                               that eatmydata makes; a correct checker must then find losses after a crash)
    fail OP SUBSTRING [COUNT [SKIP]]
                               OP in read, write, fsync: let SKIP (default 0) such OPs pass, then fail the
                               next COUNT (default -1: every one from then on) OP on a path containing
                               SUBSTRING with EIO (the countdown: fail the Nth once, or from the Nth on)
    clear-faults               forget the fail rules

Semantics (what is durable):
  * file data: only what an fsync/fdatasync of that file persisted (written to BACKING and fsynced there);
  * names: a create, rename or unlink becomes durable when its directory is fsynced (fsyncdir); until then a
    crash undoes it (unlinked and overwritten files are kept in --trash for that);
  * simplifications: truncate, mkdir, rmdir, chmod and utimens are durable at once (truncate persists the
    file's unsynced data first); hard links and symlinks are passed through.
Mounted with direct_io, so every read and write reaches this process (no kernel page cache in between).
Single-threaded (nothreads): operations are serialized. --stats FILE holds counters (key=value lines).
"""
import argparse
import errno
import os
import sys

try:
    import fusepy as fusemod          # Debian's python3-fusepy
except ImportError:                   # pip's fusepy
    import fuse as fusemod

FUSE, FuseOSError, Operations = fusemod.FUSE, fusemod.FuseOSError, fusemod.Operations

PAGE = 4096
CONTROL = "/.lazyfs-control"


class Dirty:
    """Unsynced data of one file: whole pages, and the file's logical size."""

    def __init__(self, size):
        self.pages = {}
        self.size = size


class LazyFS(Operations):
    def __init__(self, backing, trash, stats):
        self.root = os.path.realpath(backing)
        self.trash = os.path.realpath(trash)
        self.stats_file = stats
        self.dirty = {}                  # path -> Dirty
        self.undo = []                   # (directory, action, args...) in order of the operations
        self.rules = []                  # [op, substring, remaining (-1: for ever), to skip first]
        self.ignore_fsync = False
        self.trash_seq = 0
        self.stats = {"crashes": 0, "dropped_bytes": 0, "undone_names": 0, "faults_injected": 0,
                      "fsyncs_persisted": 0, "fsyncs_ignored": 0, "fsyncdirs": 0}
        self.save_stats()

    # ---- helpers ----
    def real(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def save_stats(self):
        tmp = self.stats_file + ".tmp"
        with open(tmp, "w") as f:
            for k, v in self.stats.items():
                f.write("%s=%d\n" % (k, v))
        os.replace(tmp, self.stats_file)

    def maybe_fail(self, op, path):
        for rule in self.rules:
            if rule[0] == op and rule[1] in path and rule[2] != 0:
                if rule[3] > 0:
                    rule[3] -= 1
                    continue
                if rule[2] > 0:
                    rule[2] -= 1
                self.stats["faults_injected"] += 1
                self.save_stats()
                raise FuseOSError(errno.EIO)

    def backing_size(self, path):
        try:
            return os.stat(self.real(path)).st_size
        except FileNotFoundError:
            return 0

    def read_backing(self, path, offset, size):
        with open(self.real(path), "rb") as f:
            f.seek(offset)
            return f.read(size)

    def persist(self, path):
        """Writes path's unsynced pages to the backing file and fsyncs it."""
        d = self.dirty.pop(path, None)
        fd = os.open(self.real(path), os.O_WRONLY)
        try:
            if d is not None:
                for page in sorted(d.pages):
                    start = page * PAGE
                    length = min(PAGE, d.size - start)
                    if length > 0:
                        os.pwrite(fd, bytes(d.pages[page][:length]), start)
                if os.fstat(fd).st_size < d.size:
                    os.ftruncate(fd, d.size)
            os.fsync(fd)
        finally:
            os.close(fd)

    def to_trash(self, real_path):
        self.trash_seq += 1
        kept = os.path.join(self.trash, "%d" % self.trash_seq)
        os.rename(real_path, kept)
        return kept

    @staticmethod
    def directory(path):
        return os.path.dirname(path.rstrip("/")) or "/"

    # ---- control ----
    def command(self, text):
        for line in text.decode().splitlines():
            words = line.split()
            if not words:
                continue
            if words[0] == "crash":
                self.crash()
            elif words[0] == "ignore-fsync":
                self.ignore_fsync = words[1] == "on"
            elif words[0] == "fail":
                count = int(words[3]) if len(words) > 3 else -1
                skip = int(words[4]) if len(words) > 4 else 0
                self.rules.append([words[1], words[2], count, skip])
            elif words[0] == "clear-faults":
                self.rules = []
            else:
                raise FuseOSError(errno.EINVAL)

    def crash(self):
        for d in self.dirty.values():
            self.stats["dropped_bytes"] += sum(min(PAGE, max(0, d.size - p * PAGE)) for p in d.pages)
        self.dirty.clear()
        for entry in reversed(self.undo):
            action = entry[1]
            try:
                if action == "unlink-created":
                    os.unlink(entry[2])
                elif action == "rename-back":
                    os.rename(entry[2], entry[3])
                elif action == "restore":
                    os.rename(entry[2], entry[3])
            except OSError as e:
                print("lazyfs: undo %r failed: %s" % (entry, e), file=sys.stderr)
            self.stats["undone_names"] += 1
        self.undo = []
        self.stats["crashes"] += 1
        self.save_stats()

    # ---- file system ----
    def getattr(self, path, fh=None):
        if path == CONTROL:
            st = os.lstat(self.root)
            return dict(st_mode=0o100666, st_nlink=1, st_size=0, st_uid=st.st_uid, st_gid=st.st_gid,
                        st_atime=st.st_atime, st_mtime=st.st_mtime, st_ctime=st.st_ctime)
        st = os.lstat(self.real(path))
        attrs = {k: getattr(st, k) for k in ("st_mode", "st_nlink", "st_size", "st_uid", "st_gid",
                                             "st_atime", "st_mtime", "st_ctime")}
        d = self.dirty.get(path)
        if d is not None:
            attrs["st_size"] = d.size
        return attrs

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self.real(path))

    def access(self, path, amode):
        if path != CONTROL and not os.access(self.real(path), amode):
            raise FuseOSError(errno.EACCES)

    def statfs(self, path):
        st = os.statvfs(self.root)
        return {k: getattr(st, k) for k in ("f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail",
                                            "f_ffree", "f_files", "f_flag", "f_frsize", "f_namemax")}

    def open(self, path, flags):
        if path == CONTROL:
            return 0
        fd = os.open(self.real(path), os.O_RDONLY)   # data goes through the overlay; fd keeps the file alive
        if flags & os.O_TRUNC:
            self.truncate(path, 0)
        return fd

    def create(self, path, mode, fi=None):
        if path == CONTROL:
            return 0
        real = self.real(path)
        existed = os.path.lexists(real)
        fd = os.open(real, os.O_RDONLY | os.O_CREAT, mode)
        if not existed:
            self.undo.append((self.directory(path), "unlink-created", real))
        return fd

    def read(self, path, size, offset, fh):
        if path == CONTROL:
            return b""
        self.maybe_fail("read", path)
        d = self.dirty.get(path)
        if d is None:
            return self.read_backing(path, offset, size)
        end = min(offset + size, d.size)
        out = bytearray()
        pos = offset
        while pos < end:
            page, within = divmod(pos, PAGE)
            n = min(PAGE - within, end - pos)
            if page in d.pages:
                out += d.pages[page][within:within + n]
            else:
                chunk = self.read_backing(path, pos, n)
                out += chunk + bytes(n - len(chunk))
            pos += n
        return bytes(out)

    def write(self, path, data, offset, fh):
        if path == CONTROL:
            self.command(data)
            return len(data)
        self.maybe_fail("write", path)
        d = self.dirty.get(path)
        if d is None:
            d = self.dirty[path] = Dirty(self.backing_size(path))
        pos = 0
        while pos < len(data):
            page, within = divmod(offset + pos, PAGE)
            n = min(PAGE - within, len(data) - pos)
            buf = d.pages.get(page)
            if buf is None:
                old = self.read_backing(path, page * PAGE, PAGE) if page * PAGE < d.size else b""
                buf = d.pages[page] = bytearray(old + bytes(PAGE - len(old)))
            buf[within:within + n] = data[pos:pos + n]
            pos += n
        d.size = max(d.size, offset + len(data))
        return len(data)

    def truncate(self, path, length, fh=None):
        if path == CONTROL:
            return
        if path in self.dirty:
            self.persist(path)
        os.truncate(self.real(path), length)

    def fsync(self, path, datasync, fh):
        if path == CONTROL:
            return 0
        self.maybe_fail("fsync", path)
        if self.ignore_fsync:
            self.stats["fsyncs_ignored"] += 1
        else:
            self.persist(path)
            self.stats["fsyncs_persisted"] += 1
        self.save_stats()
        return 0

    def fsyncdir(self, path, datasync, fh):
        if self.ignore_fsync:
            return 0
        path = path.rstrip("/") or "/"
        kept = []
        for entry in self.undo:
            if entry[0] == path:
                if entry[1] == "restore" and os.path.lexists(entry[2]):
                    os.unlink(entry[2])      # the old file is gone for good now
            else:
                kept.append(entry)
        self.undo = kept
        fd = os.open(self.real(path), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self.stats["fsyncdirs"] += 1
        self.save_stats()
        return 0

    def flush(self, path, fh):
        return 0                              # close(2) persists nothing

    def release(self, path, fh):
        if fh:
            os.close(fh)
        return 0

    def unlink(self, path):
        real = self.real(path)
        self.dirty.pop(path, None)
        kept = self.to_trash(real)
        self.undo.append((self.directory(path), "restore", kept, real))

    def rename(self, old, new):
        real_old, real_new = self.real(old), self.real(new)
        if os.path.lexists(real_new) and not os.path.isdir(real_new):
            kept = self.to_trash(real_new)
            self.undo.append((self.directory(new), "restore", kept, real_new))
        self.dirty.pop(new, None)
        os.rename(real_old, real_new)
        self.undo.append((self.directory(new), "rename-back", real_new, real_old))
        if old in self.dirty:
            self.dirty[new] = self.dirty.pop(old)

    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self.real(path), uid, gid)

    def utimens(self, path, times=None):
        if path != CONTROL:
            os.utime(self.real(path), times)

    def readlink(self, path):
        return os.readlink(self.real(path))

    def symlink(self, target, source):
        os.symlink(source, self.real(target))

    def link(self, target, source):
        os.link(self.real(source), self.real(target))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("backing")
    parser.add_argument("mountpoint")
    parser.add_argument("--trash", required=True)
    parser.add_argument("--stats", required=True)
    args = parser.parse_args()
    FUSE(LazyFS(args.backing, args.trash, args.stats), args.mountpoint, foreground=True, nothreads=True,
         direct_io=True, fsname="lazyfs")


if __name__ == "__main__":
    main()
