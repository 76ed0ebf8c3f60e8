"""A syscall filter for a trial process: the kernel itself refuses what could reach the world.

The audit hook (:mod:`.guard`) sees what Python code does; native code (libpq's ``connect``, a
driver's ``write`` on a serial port opened in an earlier cell, ``ctypes`` calls into libc) goes past
it. This module builds a small classic-BPF program for ``seccomp(SECCOMP_SET_MODE_FILTER)`` that
answers ``EPERM`` to:

- every ``connect``, ``bind``, ``listen``, ``sendmsg``/``sendmmsg`` and ``sendto`` with an address,
  and sockets other than Unix, IPv4 and IPv6 ones (which reach nothing without those calls; a
  netlink or packet socket acts on a plain ``write``);
- running programs (``execve``, ``execveat``), signals or scheduling changes aimed at processes other
  than the trial's own group, ``ptrace`` and reading or writing another process's memory, io_uring
  (whose operations no filter sees), and calls that change the machine (mounts, modules, clocks,
  keyrings, System V message queues and semaphores, attaching System V shared memory);
- every write-like call (``write``, ``pwrite64``, ``writev``, ``sendfile``, ``splice``, ``ftruncate``,
  ``fallocate``, ``fchmod``, ``epoll_ctl``, shared writable ``mmap`` ...) on a descriptor the trial
  inherited, except its own pipes. ``ioctl`` stays allowed: every inherited descriptor is already
  a private read-only file or /dev/null (:mod:`.descriptors`), and libraries ask them harmless
  questions (SQLite its file system's features, ``isatty``) that must not read as refusals;
- where Landlock is missing (``paths=True``): every open for writing and every call that creates,
  deletes, renames or changes a file by path, except opens relative to the trial folder's own
  descriptor (where aiperf keeps the original's values).

Why a program of our own rather than libseccomp: its Python bindings are a distribution package that
a virtual environment does not see, and the filter depends on each trial's descriptors, which a few
lines of BPF express directly. The filter cannot be removed: it is only installed in disposable
trial processes, and every process they start inherits it.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import struct
import sys
from dataclasses import dataclass, field

from .syscalls import AUDIT_ARCH, NUMBERS, X32_BIT

# classic BPF opcodes
_LD_ABS, _JA, _JEQ, _JGT, _JGE, _JSET, _RET = 0x20, 0x05, 0x15, 0x25, 0x35, 0x45, 0x06
RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS, RET_USER_NOTIF = 0x7FFF0000, 0x00050000, 0x80000000, 0x7FC00000
_NR, _ARCH = 0, 4


def _arg(i: int, high: bool = False) -> int:
    return 16 + 8 * i + (4 if high else 0)  # seccomp_data.args[i], little-endian halves


_SET_MODE_FILTER, _FLAG_NEW_LISTENER = 1, 1 << 3
_PR_SET_NO_NEW_PRIVS = 38
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10  # sockets that reach nothing until connect/bind/sendto, all refused
_MAP_SHARED, _PROT_WRITE = 0x01, 0x02
_O_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PRIO_PROCESS, _IOPRIO_WHO_PROCESS = 0, 1


def _names(text: str) -> list[str]:
    return text.split()


DENIED = _names(
    "execve execveat listen connect bind sendmsg sendmmsg tkill pidfd_send_signal ptrace process_vm_readv "
    "process_vm_writev pidfd_getfd kcmp process_madvise process_mrelease io_uring_setup io_uring_enter "
    "io_uring_register mount umount2 pivot_root chroot swapon swapoff reboot sethostname setdomainname "
    "settimeofday clock_settime clock_adjtime adjtimex init_module finit_module delete_module kexec_load "
    "kexec_file_load acct quotactl quotactl_fd bpf setns unshare keyctl add_key request_key syslog "
    "open_by_handle_at shmat msgsnd semop semtimedop mq_open mq_timedsend mq_unlink migrate_pages move_pages "
    "iopl ioperm mount_setattr fsopen fsmount move_mount open_tree fsconfig fspick vhangup"
)
# write-like calls, by the argument that holds the descriptor written to
FD_WRITES = {
    0: _names(
        "write pwrite64 writev pwritev pwritev2 ftruncate fallocate sendfile vmsplice fsetxattr fremovexattr "
        "fchmod fchown epoll_ctl inotify_add_watch inotify_rm_watch timerfd_settime fanotify_mark accept "
        "accept4 sendto"
    ),
    1: ["tee"],
    2: ["splice", "copy_file_range"],
}
PATH_WRITES = _names(
    "creat unlink unlinkat rename renameat renameat2 mkdir mkdirat rmdir link linkat symlink symlinkat chmod "
    "fchmodat fchmodat2 chown lchown fchownat truncate utime utimes utimensat futimesat setxattr lsetxattr "
    "removexattr lremovexattr mknod mknodat setxattrat removexattrat openat2"
)
SELF_FIRST_ARG = _names(
    "tgkill rt_sigqueueinfo rt_tgsigqueueinfo sched_setaffinity sched_setscheduler sched_setparam "
    "sched_setattr prlimit64"
)


@dataclass
class Policy:
    """What one trial process may not do; the descriptors are those it inherited."""

    pid: int
    inherited: set[int] = field(default_factory=set)
    paths: bool = False  # no Landlock here: refuse writes by path as well
    folder_fd: int = -1  # with ``paths``: opens relative to this descriptor stay allowed
    notify: bool = False  # refusals go to a listener (SECCOMP_RET_USER_NOTIF) instead of EPERM


def machine() -> str | None:
    """The architecture's table name, or None where no filter is built (non-Linux, other CPUs)."""
    if not sys.platform.startswith("linux"):
        return None
    arch = platform.machine().lower()
    arch = {"amd64": "x86_64", "arm64": "aarch64"}.get(arch, arch)
    return arch if arch in NUMBERS and struct.calcsize("P") == 8 else None


class _Asm:
    """Instructions with forward jumps to labels (``JA``, 32-bit) resolved once the program is done.

    Conditional jumps only ever skip the next instruction, so no 8-bit offset can overflow however
    large the program grows: each test is followed by its own return or ``JA``.
    """

    def __init__(self) -> None:
        self.ins: list[tuple[int, int, int, int | str]] = []  # (code, jt, jf, k or label)
        self.labels: dict[str, int] = {}

    def op(self, code: int, k: int | str = 0, jt: int = 0, jf: int = 0) -> None:
        self.ins.append((code, jt, jf, k if isinstance(k, str) else k & 0xFFFFFFFF))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.ins)

    def load(self, offset: int) -> None:
        self.op(_LD_ABS, offset)

    def ret(self, value: int) -> None:
        self.op(_RET, value)

    def goto(self, name: str) -> None:
        self.op(_JA, name)

    def when(self, test: int, k: int, then: int | str, negate: bool = False) -> None:
        """If the test holds (or fails, with ``negate``), return ``then`` (a value) or jump to it (a label)."""
        self.op(test, k, jt=1 if negate else 0, jf=0 if negate else 1)
        if isinstance(then, str):
            self.goto(then)
        else:
            self.ret(then)

    def assemble(self) -> bytes:
        out = []
        for pc, (code, jt, jf, k) in enumerate(self.ins):
            value = self.labels[k] - pc - 1 if isinstance(k, str) else k
            out.append(struct.pack("=HBBI", code, jt, jf, value))
        return b"".join(out)


def _ranges(fds: set[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for fd in sorted(fds):
        if out and fd == out[-1][1] + 1:
            out[-1] = (out[-1][0], fd)
        else:
            out.append((fd, fd))
    return out if len(out) <= 400 else [(out[0][0], out[-1][1])]  # a huge table: one span, refusing more


def program(policy: Policy, arch: str) -> bytes:
    """The filter as the kernel reads it (an array of ``struct sock_filter``)."""
    nr = NUMBERS[arch]
    deny = RET_USER_NOTIF if policy.notify else RET_ERRNO | errno.EPERM
    a = _Asm()
    a.load(_ARCH)
    a.when(_JEQ, AUDIT_ARCH[arch], RET_KILL_PROCESS, negate=True)  # another architecture's table: never ours
    a.load(_NR)
    if arch == "x86_64":
        a.when(_JGE, X32_BIT, deny)
    rules: dict[str, str] = {n: "deny" for n in DENIED}
    for i, names in FD_WRITES.items():
        rules.update({n: f"fd{i}" for n in names})
    rules.update({n: "self0" for n in SELF_FIRST_ARG})
    rules.update({"kill": "kill", "socket": "socket", "sendto": "sendto", "mmap": "mmap"})
    rules.update({"setpriority": "who", "ioprio_set": "who"})
    if policy.paths:
        rules.update({n: "deny" for n in PATH_WRITES})
        rules.update({"open": "open1", "openat": "open2"})
    for name, target in sorted(rules.items()):
        if name in nr:
            a.when(_JEQ, nr[name], target)
    a.ret(RET_ALLOW)
    a.label("deny")
    a.ret(deny)
    _blocks(a, policy, deny)
    return a.assemble()


def _blocks(a: _Asm, policy: Policy, deny: int) -> None:
    pid = policy.pid
    a.label("kill")  # the trial itself, its own group (0, -pid); never -1 (every process)
    a.load(_arg(0))
    for value in (pid, 0, -pid):
        a.when(_JEQ, value, RET_ALLOW)
    a.ret(deny)
    a.label("self0")
    a.load(_arg(0))
    for value in (pid, 0):
        a.when(_JEQ, value, RET_ALLOW)
    a.ret(deny)
    a.label("who")  # setpriority / ioprio_set (which, who): one process, and this one
    a.load(_arg(0))
    a.when(_JGT, max(_PRIO_PROCESS, _IOPRIO_WHO_PROCESS), deny)
    a.load(_arg(1))
    for value in (pid, 0):
        a.when(_JEQ, value, RET_ALLOW)
    a.ret(deny)
    a.label("socket")  # netlink, packet and the other families can act on a bare write
    a.load(_arg(0))
    for family in (AF_UNIX, AF_INET, AF_INET6):
        a.when(_JEQ, family, RET_ALLOW)
    a.ret(deny)
    a.label("sendto")  # with an address: a datagram to somewhere; without: on a socket it already has
    for high in (False, True):
        a.load(_arg(4, high))
        a.when(_JEQ, 0, deny, negate=True)
    a.goto("fd0")
    a.label("mmap")  # shared and writable, of an inherited descriptor
    a.load(_arg(3))
    a.when(_JSET, _MAP_SHARED, RET_ALLOW, negate=True)
    a.load(_arg(2))
    a.when(_JSET, _PROT_WRITE, RET_ALLOW, negate=True)
    a.goto("fd4")
    if policy.paths:
        for i in (1, 2):
            a.label(f"open{i}")
            a.load(_arg(i))
            a.when(_JSET, _O_WRITES, RET_ALLOW, negate=True)
            if i == 2 and policy.folder_fd >= 0:
                a.load(_arg(0))
                a.when(_JEQ, policy.folder_fd, RET_ALLOW)
            a.ret(deny)
    for i in (0, 1, 2, 4):
        a.label(f"fd{i}")
        a.load(_arg(i))
        for lo, hi in _ranges(policy.inherited):
            a.op(_JGE, lo, jt=0, jf=2)  # below this range: on to the next
            a.op(_JGT, hi, jt=1, jf=0)  # above it: on to the next
            a.ret(deny)
        a.ret(RET_ALLOW)


def install(policy: Policy) -> int:
    """Install the filter on this (single-threaded, disposable) process.

    Returns the listener descriptor when ``policy.notify`` (else -1); raises OSError when the kernel
    refuses, leaving the process unfiltered.
    """
    arch = machine()
    if arch is None:
        raise OSError(errno.ENOSYS, "no syscall filter for this system")
    code = program(policy, arch)
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(code, len(code))
    prog = struct.pack("=HxxxxxxQ", len(code) // 8, ctypes.addressof(buf))
    prog_buf = ctypes.create_string_buffer(prog, len(prog))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs refused")
    flags = _FLAG_NEW_LISTENER if policy.notify else 0
    nr = NUMBERS[arch]["seccomp"]
    result = libc.syscall(ctypes.c_long(nr), ctypes.c_uint(_SET_MODE_FILTER), ctypes.c_uint(flags), prog_buf)
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"the syscall filter was refused: {os.strerror(err)}")
    return int(result) if policy.notify else -1
