/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the kernels rvtc builds against (6.1 and 6.12 LTS),
 * in one place: version checks here, never copies of the module.
 */
#ifndef RVTC_COMPAT_H
#define RVTC_COMPAT_H

#include <linux/fs.h>
#include <linux/version.h>

/*
 * 6.12 removed no_llseek (commit cb787f4ac0c2): a file without ->llseek
 * refuses to seek with -ESPIPE, as no_llseek did before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define RVTC_NO_LLSEEK NULL
#else
#define RVTC_NO_LLSEEK no_llseek
#endif

#endif /* RVTC_COMPAT_H */
