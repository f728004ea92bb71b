/**
 * The command table: `spades help` and dispatch come from the same entries, and every command
 * refuses an unknown option, a missing value, a switch given a value and a stray argument the
 * same way: exit 2, one line on stderr naming what was wrong, nothing on stdout. Refusals come
 * before a command opens anything, so no ledger is needed here.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../server/cli/command-table.ts';
import { cli } from './fixtures/cli.ts';

const oneLine = (text: string) => text.endsWith('\n') && !text.slice(0, -1).includes('\n');

describe('spades help', () => {
  it('lists every command by its usage line and summary', async () => {
    for (const args of [[], ['help'], ['--help']]) {
      const result = await cli(args);
      expect(result.code).toBe(0);
      for (const command of COMMANDS) {
        expect(result.stdout).toContain(`spades ${command.usage}\n`);
        expect(result.stdout).toContain(command.summary);
      }
    }
  });

  it('describes one command with each of its options, and names every option in its usage line', async () => {
    for (const command of COMMANDS) {
      const result = await cli(['help', command.name]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout.startsWith(`usage: spades ${command.usage}\n`)).toBe(true);
      for (const [name, option] of Object.entries(command.options)) {
        expect(result.stdout).toContain(`--${name}`);
        expect(result.stdout).toContain(option.help);
        expect(command.usage, command.name).toContain(`--${name}`);
      }
    }
  });

  it('says which commands there are when asked about one that is not', async () => {
    expect(await cli(['help', 'frobnicate'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^spades: unknown command 'frobnicate'; the commands are: serve, /),
    });
    expect(await cli(['frobnicate'])).toMatchObject({ code: 2, stdout: '' });
  });
});

describe('every command reads its arguments strictly', () => {
  for (const command of COMMANDS) {
    const options = Object.entries(command.options);
    it(`spades ${command.name}`, async () => {
      const unknown = await cli([command.name, '--no-such-option']);
      expect(unknown).toMatchObject({ code: 2, stdout: '' });
      expect(oneLine(unknown.stderr)).toBe(true);
      expect(unknown.stderr).toMatch(new RegExp(`^spades ${command.name}: unknown option --no-such-option; `));
      for (const [name] of options) expect(unknown.stderr).toContain(`--${name}`);

      expect(await cli([command.name, '-z'])).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringMatching(new RegExp(`^spades ${command.name}: unknown option -z; [^\\n]*\\n$`)),
      });

      for (const [name, option] of options) {
        if (option.type === 'string') {
          for (const args of [[`--${name}`], [`--${name}=`], [`--${name}`, '--no-such-option']]) {
            expect(await cli([command.name, ...args]), args.join(' ')).toEqual({
              code: 2,
              stdout: '',
              stderr: `spades ${command.name}: --${name} needs a value\n`,
            });
          }
          expect(await cli([command.name, `--${name}=a`, `--${name}=b`])).toEqual({
            code: 2,
            stdout: '',
            stderr: `spades ${command.name}: --${name} given twice\n`,
          });
        } else {
          expect(await cli([command.name, `--${name}=yes`])).toEqual({ code: 2, stdout: '', stderr: `spades ${command.name}: --${name} takes no value\n` });
        }
      }

      if (!command.positionals) {
        expect(await cli([command.name, 'stray'])).toEqual({
          code: 2,
          stdout: '',
          stderr: `spades ${command.name}: unexpected argument 'stray'; usage: spades ${command.usage}\n`,
        });
      }
    });
  }
});

describe('spades serve on PostgreSQL', () => {
  const withDatabaseUrl = async (url: string, run: () => Promise<void>) => {
    const before = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url;
    try {
      await run();
    } finally {
      if (before === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = before;
    }
  };

  it('refuses a DATABASE_URL that is not PostgreSQL’s, or a database it cannot reach, in one line without the password', async () => {
    await withDatabaseUrl('mysql://user:secret@db/spades', async () => {
      const result = await cli(['serve', '--no-demo']);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(oneLine(result.stderr)).toBe(true);
      expect(result.stderr).toMatch(/^spades serve: DATABASE_URL is set but is not a postgres:\/\/ or postgresql:\/\/ URL/);
      expect(result.stderr).not.toContain('secret');
    });
    await withDatabaseUrl('postgres://user:secret@127.0.0.1:1/spades', async () => {
      const result = await cli(['serve', '--no-demo']);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(oneLine(result.stderr)).toBe(true);
      expect(result.stderr).toMatch(/^spades serve: cannot open the ledger at postgres:\/\/user@127\.0\.0\.1:1\/spades: /);
      expect(result.stderr).not.toContain('secret');
    });
  });
});
