/**
 * The ledger's verification page: whether every stored event is still as it was appended, the
 * head digest an auditor writes down, and a check that a digest written down earlier is still
 * part of today's chain. The same answers as `spades verify`, for someone without a shell.
 */
import type { DigestCheck } from '../events/store/append.ts';
import { type ChainHead, type ChainReport, formatDigest } from '../events/hash-chain.ts';
import { Layout } from './layout.tsx';

export interface VerifyPageProps {
  report: ChainReport;
  /** The head as stored, whether or not the chain up to it verifies. */
  stored: ChainHead;
  /** How many events the file holds. */
  events: number;
  /** A noted digest that was checked, and what the check found (or why it could not be read). */
  check?: { digest: string } & ({ result: DigestCheck } | { error: string });
}

/** The verification page. */
export function VerifyPage({ report, stored, events, check }: VerifyPageProps) {
  return (
    <Layout title="Verify the ledger">
      <h1>Verify the ledger</h1>
      {report.ok ? (
        <p class="notice notice--result" id="chain-status" data-ok="true">
          <strong>Chain intact.</strong> Every one of the {report.count} events recomputes to its stored hash and links to the one before.
        </p>
      ) : (
        <p class="notice notice--review" id="chain-status" data-ok="false" data-first-bad={report.firstBad!.position}>
          <strong>Chain broken at position {report.firstBad!.position}:</strong> {report.firstBad!.reason}. The {report.count} events before it verify;
          everything from position {report.firstBad!.position} on can no longer be trusted.
        </p>
      )}
      <dl class="facts">
        <div>
          <dt>Events</dt>
          <dd id="event-count">{events}</dd>
        </div>
        <div>
          <dt>Verified</dt>
          <dd>{report.count}</dd>
        </div>
        <div>
          <dt>Head position</dt>
          <dd>{stored.position}</dd>
        </div>
      </dl>
      <h2>Head hash</h2>
      <p>
        <code id="head-hash">{stored.hash}</code>
      </p>

      <h2>Digest to write down</h2>
      {report.ok ? (
        <>
          <p>Note this down (or photograph it). Whoever checks it later proves that nothing up to position {report.head.position} has changed since.</p>
          <p>
            <code id="head-digest">{formatDigest(report.head)}</code>
          </p>
        </>
      ) : (
        <p class="notice notice--review">
          No digest is offered while the chain is broken. The last verified head was <code>{formatDigest(report.head)}</code>.
        </p>
      )}

      <h2 id="check-title">Check a noted digest</h2>
      <form method="get" action="/verify" aria-labelledby="check-title">
        <p>
          <label for="digest">Digest (position:hash)</label>
          <br />
          <input id="digest" name="digest" type="text" size={72} required autocomplete="off" spellcheck={false} value={check?.digest ?? ''} />
        </p>
        <p>
          <button type="submit">Check</button>
        </p>
      </form>
      {check ? <CheckResult check={check} /> : null}
      <p class="muted">
        The whole ledger: <a href="/api/ledger.ndjson">download as NDJSON</a>, one stored event a line with its hash between a header and a trailer line that
        name the head, to verify anywhere with <code>spades import-ledger</code> and <code>spades verify</code>.
      </p>
    </Layout>
  );
}

function CheckResult({ check }: { check: NonNullable<VerifyPageProps['check']> }) {
  if ('error' in check) {
    return (
      <p class="notice notice--review" id="digest-result" data-ok="false">
        {check.error}
      </p>
    );
  }
  return check.result.ok ? (
    <p class="notice notice--result" id="digest-result" data-ok="true">
      Digest {formatDigest(check.result.head)} is part of today's chain: nothing up to position {check.result.head.position} has changed.
    </p>
  ) : (
    <p class="notice notice--review" id="digest-result" data-ok="false">
      Digest {check.digest} is not part of today's chain: {check.result.reason}.
    </p>
  );
}
