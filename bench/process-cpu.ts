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
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
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

/** CPU the whole machine has used so far (every core, user + nice + system + irq + softirq; not steal, which other guests used), in ms, from /proc/stat. */
export function machineCpuMs(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq] = fields.map(Number);
  return ((user + nice + system + irq + softirq) * 1000) / TICKS_PER_SECOND;
}
