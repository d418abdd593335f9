import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second, the unit of utime and stime in /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU a process has used so far (user + system), in ms, from /proc/<pid>/stat;
 * null once it has exited. The command name (field 2) may hold spaces and
 * parentheses, so the fields are counted after its closing parenthesis.
 */
export function cpuMsOf(pid: number): number | null {
  const fields = statFields(pid);
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND : null;
}

/**
 * Read- and write-class system calls a process has made so far (syscr + syscw in
 * /proc/<pid>/io: read, write, readv, writev and the like, sockets included);
 * null once it has exited or when the file cannot be read. On these machines a
 * system call costs more than most of the JavaScript around it, so the count
 * per operation says where batching still has work to do.
 */
export function syscallsOf(pid: number): number | null {
  let io: string;
  try {
    io = readFileSync(`/proc/${pid}/io`, 'utf8');
  } catch {
    return null;
  }
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1] ?? NaN);
  return field('syscr') + field('syscw');
}

/**
 * CPU of the children a process has waited for (cutime + cstime in /proc/<pid>/stat), in ms:
 * the postmaster's is every PostgreSQL backend that has ended, the bench's own every command
 * it ran to the end (pgbench); null once the process has exited.
 */
export function reapedChildrenCpuMsOf(pid: number): number | null {
  const fields = statFields(pid);
  // cutime (16) and cstime (17) are at 13 and 14 after the name.
  return fields ? ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND : null;
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses), or null once it has exited. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The parent of a process (field 4 of /proc/<pid>/stat), or null once it has exited. */
export function parentOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[1]) : null;
}
