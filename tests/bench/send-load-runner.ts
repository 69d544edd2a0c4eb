import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SendLoadMessage, SendLoadOptions, SendLoadResult } from './send-load-generator.ts';
import { machineBusy } from './send-server.ts';
import type { BenchService } from './send-service.ts';

export type Generate = Omit<SendLoadOptions, 'connections' | 'durationSeconds' | 'warmupSeconds'>;

/**
 * Forks the load generator and waits for its figures; CPU over the measured window of the server (the
 * service's child process when given, else this process) and of the whole machine.
 */
export function generate(options: Generate, s: { connections: number; durationSeconds: number; warmupSeconds: number }, service?: BenchService): Promise<{ load: SendLoadResult; serverCpu: number; machineCpu: number }> {
  const full: SendLoadOptions = { ...options, connections: s.connections, durationSeconds: s.durationSeconds, warmupSeconds: s.warmupSeconds };
  const cpuNow = () => (service ? service.cpuSeconds() : (({ user, system }) => (user + system) / 1e6)(process.cpuUsage()));
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./send-load-generator.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let cpuAtStart = cpuNow();
    let machineAtStart = os.cpus();
    child.on('message', (message: SendLoadMessage) => {
      if (message.type === 'measuring') { cpuAtStart = cpuNow(); machineAtStart = os.cpus(); return; }
      resolve({ load: message.result, serverCpu: (cpuNow() - cpuAtStart) / s.durationSeconds, machineCpu: machineBusy(machineAtStart, os.cpus()) });
    });
    child.on('error', reject);
    // A generator that ends without its figures (killed, crashed, disconnected) fails the bench instead of hanging it.
    child.on('exit', (code, signal) => reject(new Error(`load generator exited (code ${code}, signal ${signal}) without its figures`)));
    child.send(full);
  });
}

