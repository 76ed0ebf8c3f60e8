"""System call numbers of the calls a trial's syscall filter names, for the architectures it supports.

Read from the kernel's own tables (``asm/unistd_64.h`` for x86-64, the generic ``asm-generic/unistd.h``
that arm64 uses); calls added since 5.x share one number on every architecture. An architecture
without a table here gets no filter, and Try says so.
"""

from __future__ import annotations

AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}  # seccomp_data.arch of each
X32_BIT = 0x40000000  # x86-64's x32 calls carry this bit: a second, unfiltered table, refused whole

# fmt: off
NUMBERS: dict[str, dict[str, int]] = {
    "x86_64": {
        "accept": 43, "accept4": 288, "acct": 163, "add_key": 248, "adjtimex": 159, "bind": 49, "bpf": 321,
        "chmod": 90, "chown": 92, "chroot": 161, "clock_adjtime": 305, "clock_settime": 227, "connect": 42,
        "copy_file_range": 326, "creat": 85, "delete_module": 176, "epoll_ctl": 233, "execve": 59, "execveat": 322,
        "fallocate": 285, "fanotify_mark": 301, "fchmod": 91, "fchmodat": 268, "fchmodat2": 452, "fchown": 93,
        "fchownat": 260, "finit_module": 313, "fremovexattr": 199, "fsconfig": 431, "fsetxattr": 190,
        "fsmount": 432, "fsopen": 430, "fspick": 433, "ftruncate": 77, "futimesat": 261, "init_module": 175,
        "inotify_add_watch": 254, "inotify_rm_watch": 255, "io_uring_enter": 426, "io_uring_register": 427,
        "io_uring_setup": 425, "ioctl": 16, "ioperm": 173, "iopl": 172, "ioprio_set": 251, "kcmp": 312,
        "kexec_file_load": 320, "kexec_load": 246, "keyctl": 250, "kill": 62, "lchown": 94, "link": 86,
        "linkat": 265, "listen": 50, "lremovexattr": 198, "lsetxattr": 189, "migrate_pages": 256, "mkdir": 83,
        "mkdirat": 258, "mknod": 133, "mknodat": 259, "mmap": 9, "mount": 165, "mount_setattr": 442,
        "move_mount": 429, "move_pages": 279, "mprotect": 10, "mq_open": 240, "mq_timedsend": 242,
        "mq_unlink": 241, "mremap": 25, "msgsnd": 69, "open": 2, "open_by_handle_at": 304, "open_tree": 428,
        "openat": 257, "openat2": 437, "pidfd_getfd": 438, "pidfd_open": 434, "pidfd_send_signal": 424,
        "pivot_root": 155, "pkey_mprotect": 329, "prlimit64": 302, "process_madvise": 440, "process_mrelease": 448,
        "process_vm_readv": 310, "process_vm_writev": 311, "ptrace": 101, "pwrite64": 18, "pwritev": 296,
        "pwritev2": 328, "quotactl": 179, "quotactl_fd": 443, "reboot": 169, "removexattr": 197,
        "removexattrat": 466, "rename": 82, "renameat": 264, "renameat2": 316, "request_key": 249, "rmdir": 84,
        "rt_sigqueueinfo": 129, "rt_tgsigqueueinfo": 297, "sched_setaffinity": 203, "sched_setattr": 314,
        "sched_setparam": 142, "sched_setscheduler": 144, "seccomp": 317, "semop": 65, "semtimedop": 220,
        "sendfile": 40, "sendmmsg": 307, "sendmsg": 46, "sendto": 44, "setdomainname": 171, "sethostname": 170,
        "setns": 308, "setpriority": 141, "settimeofday": 164, "setxattr": 188, "setxattrat": 463, "shmat": 30,
        "socket": 41, "splice": 275, "swapoff": 168, "swapon": 167, "symlink": 88, "symlinkat": 266, "syslog": 103,
        "tee": 276, "tgkill": 234, "timerfd_settime": 286, "tkill": 200, "truncate": 76, "umount2": 166,
        "unlink": 87, "unlinkat": 263, "unshare": 272, "utime": 132, "utimensat": 280, "utimes": 235,
        "vhangup": 153, "vmsplice": 278, "write": 1, "writev": 20,
    },
    "aarch64": {
        "accept": 202, "accept4": 242, "acct": 89, "add_key": 217, "adjtimex": 171, "bind": 200, "bpf": 280,
        "chroot": 51, "clock_adjtime": 266, "clock_settime": 112, "connect": 203, "copy_file_range": 285,
        "delete_module": 106, "epoll_ctl": 21, "execve": 221, "execveat": 281, "fallocate": 47,
        "fanotify_mark": 263, "fchmod": 52, "fchmodat": 53, "fchmodat2": 452, "fchown": 55, "fchownat": 54,
        "finit_module": 273, "fremovexattr": 16, "fsconfig": 431, "fsetxattr": 7, "fsmount": 432, "fsopen": 430,
        "fspick": 433, "ftruncate": 46, "init_module": 105, "inotify_add_watch": 27, "inotify_rm_watch": 28,
        "io_uring_enter": 426, "io_uring_register": 427, "io_uring_setup": 425, "ioctl": 29, "ioprio_set": 30,
        "kcmp": 272, "kexec_file_load": 294, "kexec_load": 104, "keyctl": 219, "kill": 129, "linkat": 37,
        "listen": 201, "lremovexattr": 15, "lsetxattr": 6, "migrate_pages": 238, "mkdirat": 34, "mknodat": 33,
        "mmap": 222, "mount": 40, "mount_setattr": 442, "move_mount": 429, "move_pages": 239, "mprotect": 226,
        "mq_open": 180, "mq_timedsend": 182, "mq_unlink": 181, "mremap": 216, "msgsnd": 189,
        "open_by_handle_at": 265, "open_tree": 428, "openat": 56, "openat2": 437, "pidfd_getfd": 438,
        "pidfd_open": 434, "pidfd_send_signal": 424, "pivot_root": 41, "pkey_mprotect": 288, "prlimit64": 261,
        "process_madvise": 440, "process_mrelease": 448, "process_vm_readv": 270, "process_vm_writev": 271,
        "ptrace": 117, "pwrite64": 68, "pwritev": 70, "pwritev2": 287, "quotactl": 60, "quotactl_fd": 443,
        "reboot": 142, "removexattr": 14, "removexattrat": 466, "renameat": 38, "renameat2": 276,
        "request_key": 218, "rt_sigqueueinfo": 138, "rt_tgsigqueueinfo": 240, "sched_setaffinity": 122,
        "sched_setattr": 274, "sched_setparam": 118, "sched_setscheduler": 119, "seccomp": 277, "semop": 193,
        "semtimedop": 192, "sendfile": 71, "sendmmsg": 269, "sendmsg": 211, "sendto": 206, "setdomainname": 162,
        "sethostname": 161, "setns": 268, "setpriority": 140, "settimeofday": 170, "setxattr": 5,
        "setxattrat": 463, "shmat": 196, "socket": 198, "splice": 76, "swapoff": 225, "swapon": 224,
        "symlinkat": 36, "syslog": 116, "tee": 77, "tgkill": 131, "timerfd_settime": 86, "tkill": 130,
        "truncate": 45, "umount2": 39, "unlinkat": 35, "unshare": 97, "utimensat": 88, "vhangup": 58,
        "vmsplice": 75, "write": 64, "writev": 66,
    },
}
# fmt: on
