// The simulator's terminal: a small line shell that says it is simulated and
// answers a handful of commands from the simulated device's state. It speaks terminal bytes as
// text: it echoes what is typed, edits the line (backspace, Ctrl-C) and ends on `exit` or Ctrl-D.

export type SimulatedShellState = {
  hostname: string;
  deviceType: string;
  osVersion: string;
  uptimeMs: number;
  storageUsedMb: number;
  storageTotalMb: number;
  services: readonly { name: string; status: string }[];
};

export type SimulatedShellOptions = {
  // Read when a command runs, so answers follow the device.
  state: () => SimulatedShellState;
  // Where the shell's output goes ("\r\n" line ends, as a terminal expects).
  write: (text: string) => void;
  onExit: (code: number) => void;
  // 'host' for the host OS, else the service the shell runs in.
  target: string;
};

const newline = '\r\n';

const duration = (ms: number): string => {
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (days > 0) return `${days} days, ${hours % 24}:${String(minutes % 60).padStart(2, '0')}`;
  return `${hours}:${String(minutes % 60).padStart(2, '0')}`;
};

export class SimulatedShell {
  readonly #options: SimulatedShellOptions;
  #line = '';
  #ended = false;

  constructor(options: SimulatedShellOptions) {
    this.#options = options;
  }

  get #prompt(): string {
    const { target } = this.#options;
    const where = target === 'host' ? this.#options.state().hostname : target;
    return `root@${where}:~# `;
  }

  start(): void {
    const { target } = this.#options;
    this.#write(
      `Flotilla simulator: this is a simulated shell on a simulated device ${target === 'host' ? '(host OS)' : `(service ${target})`}.${newline}` +
        `It answers: uname -a, uptime, df -h, ps, cat /etc/os-release, hostname, echo, help, exit.${newline}`,
    );
    this.#write(this.#prompt);
  }

  // Keystrokes from the terminal.
  input(data: string): void {
    for (const char of data) {
      if (this.#ended) return;
      if (char === '\r' || char === '\n') {
        this.#write(newline);
        const command = this.#line.trim();
        this.#line = '';
        if (command !== '') this.#run(command);
        if (!this.#ended) this.#write(this.#prompt);
      } else if (char === '\u007f' || char === '\b') {
        if (this.#line.length > 0) {
          this.#line = this.#line.slice(0, -1);
          this.#write('\b \b');
        }
      } else if (char === '\u0003') {
        this.#line = '';
        this.#write(`^C${newline}${this.#prompt}`);
      } else if (char === '\u0004') {
        if (this.#line === '') this.#exit(0);
      } else if (char >= ' ') {
        this.#line += char;
        this.#write(char);
      }
    }
  }

  #run(command: string): void {
    const state = this.#options.state();
    const [name = '', ...args] = command.split(/\s+/);
    const print = (text: string): void =>
      this.#write(`${text.split('\n').join(newline)}${newline}`);
    switch (command) {
      case 'uname -a':
        return print(
          `Linux ${state.hostname} 6.1.77 #1 SMP PREEMPT aarch64 GNU/Linux (simulated ${state.deviceType})`,
        );
      case 'uptime':
        return print(` up ${duration(state.uptimeMs)},  1 user,  load average: 0.08, 0.12, 0.10`);
      case 'df -h': {
        const used = state.storageUsedMb;
        const total = state.storageTotalMb;
        const percent = total > 0 ? Math.round((used / total) * 100) : 0;
        return print(
          `Filesystem      Size  Used Avail Use% Mounted on\n` +
            `/dev/mmcblk0p6  ${(total / 1024).toFixed(1)}G  ${(used / 1024).toFixed(1)}G  ${((total - used) / 1024).toFixed(1)}G  ${percent}% /mnt/data`,
        );
      }
      case 'ps':
        return print(
          [
            '  PID USER     COMMAND',
            '    1 root     /sbin/init',
            '  312 root     flotilla-agent (simulated supervisor)',
            ...state.services.map(
              (service, index) =>
                `${String(400 + index).padStart(5)} root     ${service.name} [${service.status}]`,
            ),
          ].join('\n'),
        );
      case 'cat /etc/os-release':
        return print(
          `ID=balena-os\nNAME="balenaOS"\nVERSION="${state.osVersion.replace(/^balenaOS /, '')}"\nPRETTY_NAME="${state.osVersion} (simulated)"`,
        );
      case 'hostname':
        return print(state.hostname);
      case 'help':
        return print('uname -a, uptime, df -h, ps, cat /etc/os-release, hostname, echo, exit');
      case 'exit':
        return this.#exit(0);
    }
    if (name === 'echo') return print(args.join(' '));
    print(`sh: ${name}: command not found`);
  }

  #exit(code: number): void {
    this.#ended = true;
    this.#write(`logout${newline}`);
    this.#options.onExit(code);
  }

  #write(text: string): void {
    this.#options.write(text);
  }
}
