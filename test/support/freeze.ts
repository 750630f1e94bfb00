import fs from 'node:fs';

/**
 * SIGSTOPs a process and resolves once every one of its threads is stopped (state T in
 * /proc/<pid>/task/<tid>/stat). kill(2) returns before the group stop is complete: on this
 * machine's VMs a JVM answered about one HTTP request in ten sent right after SIGSTOP
 * (`answered while stopped: 12 of 100`, none of 100 once its threads were waited for), so a test
 * of a hung dependency that does not wait can meet a live one. Throws when the threads have not
 * all stopped within `timeoutMs` (or the process is gone). Linux only; elsewhere it only sends SIGSTOP.
 */
export async function freezeProcess(pid: number, timeoutMs = 10_000): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  // Without procfs (macOS) the threads cannot be read: SIGSTOP alone, as before.
  if (!fs.existsSync('/proc/self/task')) return;
  const deadline = Date.now() + timeoutMs;
  while (!allStopped(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid}: not every thread stopped within ${timeoutMs} ms of SIGSTOP`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function allStopped(pid: number): boolean {
  const tasks = fs.readdirSync(`/proc/${pid}/task`);
  return tasks.every((tid) => {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      return true; // the thread ended meanwhile
    }
    // pid (comm) state ...: comm may hold spaces and parentheses, so the state follows the last ')'.
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'T' || state === 't';
  });
}
