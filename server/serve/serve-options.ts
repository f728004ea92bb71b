/**
 * What `spades serve` is told: its flags and the settings from the environment (PORT, HOST,
 * DATA_DIR, TRUST_PROXY, LEDGER_WRITER_HOST), each checked with a one-line refusal naming the setting.
 */
import { UsageError } from '../cli/io.ts';
import { trustProxyProblem } from '../http/client-address.ts';

export type DemoKind = 'pitt-boss' | 'progressive';
const DEMO_KINDS: readonly DemoKind[] = ['pitt-boss', 'progressive'];

export interface ServeOptions {
  port: number;
  /** The address to listen on; every interface when not given, so phones on the venue's Wi-Fi reach it. */
  host: string | undefined;
  dataDir: string;
  demo: boolean;
  /** Which demo: the pitt-boss bracket, or a progressive evening (`--demo progressive`). */
  demoKind: DemoKind;
  /** Milliseconds between entries at each table. */
  paceMs: number;
  /**
   * On PostgreSQL, the address this process listens on for the other server processes' appends
   * while it is the ledger's writer (events/store/postgres/writer-link.ts): this machine only,
   * unless the processes run on several machines.
   */
  writerHost: string;
}

/** The options as `spades serve` was given them (see its entry in cli/command-table.ts). */
export interface ServeArguments {
  values: { 'no-demo'?: boolean; demo?: string; pace?: string };
}

export function readOptions({ values }: ServeArguments, env: NodeJS.ProcessEnv): ServeOptions {
  const options: ServeOptions = {
    port: 3000,
    host: undefined,
    dataDir: env.DATA_DIR || './data',
    demo: values['no-demo'] !== true,
    demoKind: 'pitt-boss',
    paceMs: 1000,
    writerHost: '127.0.0.1',
  };
  if (values.demo !== undefined) {
    if (!DEMO_KINDS.includes(values.demo as DemoKind)) throw new UsageError(`--demo is ${DEMO_KINDS.join(' or ')}, not '${values.demo}'`);
    if (values['no-demo']) throw new UsageError('--demo and --no-demo cannot both be given');
    options.demoKind = values.demo as DemoKind;
  }
  if (env.PORT !== undefined) {
    if (!/^\d+$/.test(env.PORT) || Number(env.PORT) > 65535) throw new UsageError(`PORT must be a port number (0–65535), not '${env.PORT}'`);
    options.port = Number(env.PORT);
  }
  const untrusted = trustProxyProblem(env.TRUST_PROXY);
  if (untrusted) throw new UsageError(untrusted);
  if (env.HOST !== undefined && env.HOST !== '') {
    // An address or a name; whether this machine has it is for listen to say.
    if (!/^[A-Za-z0-9.:%_-]+$/.test(env.HOST))
      throw new UsageError(`HOST must be an address to listen on (127.0.0.1, ::1, 0.0.0.0, a host name), not '${env.HOST}'`);
    options.host = env.HOST;
  }
  if (env.LEDGER_WRITER_HOST !== undefined && env.LEDGER_WRITER_HOST !== '') {
    if (!/^[A-Za-z0-9.:%_-]+$/.test(env.LEDGER_WRITER_HOST)) {
      throw new UsageError(
        `LEDGER_WRITER_HOST must be this machine's address as the other server processes reach it (10.0.0.5, a host name), not '${env.LEDGER_WRITER_HOST}'`,
      );
    }
    options.writerHost = env.LEDGER_WRITER_HOST;
  }
  if (values.pace !== undefined) {
    if (!/^\d+$/.test(values.pace)) throw new UsageError(`--pace takes milliseconds between entries at a table, not '${values.pace}'`);
    options.paceMs = Number(values.pace);
  }
  return options;
}
