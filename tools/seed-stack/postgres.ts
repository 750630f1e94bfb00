import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { badValue, ports, postgres as pgContract, workDir, type Log } from './contract';
import { accepts, requireFree, spawnLogged, waitUntil, type Child } from './proc';

const execFileAsync = promisify(execFile);

/**
 * The seed stack's PostgreSQL: Debian's PostgreSQL server (/usr/lib/postgresql/<major>/bin), a
 * private cluster under `<workDir()>/postgres` made fresh on every start (initdb), logical
 * decoding on (wal_level=logical) for Debezium's pgoutput, listening on 127.0.0.1:ports.postgres
 * with its unix socket in the work folder. initdb and the server refuse to run as root, so when we
 * are root both run as the `postgres` system user (setpriv, which execs in place, so the child we
 * hold is the postmaster itself) and the cluster folder belongs to that user.
 *
 * Holds role `seed` (password `seed`, LOGIN REPLICATION), database `shop`, schema `shop` and table
 * `shop.orders`, all owned by `seed`, plus the publication `dbz_publication` for that table.
 */
export interface SeedPostgres {
  host: string;
  port: number;
  /** Runs SQL as the superuser over the unix socket (psql, ON_ERROR_STOP); resolves with psql's unaligned output. */
  exec(sql: string, database?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Debezium's default publication name; created here for shop.orders so Debezium needs no superuser. */
export const publicationName = 'dbz_publication';

export async function startPostgres(log: Log): Promise<SeedPostgres> {
  await requireFree(ports.postgres, 'PostgreSQL', 'SEED_PG_PORT');
  const bin = findPostgresBin(log);
  const home = path.join(workDir(), 'postgres');
  const data = path.join(home, 'data');
  const socketDir = path.join(home, 'run');
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(socketDir, { recursive: true });
  const asUser = serverUser();
  if (asUser) spawnSync('chown', ['-R', `${asUser.uid}:${asUser.gid}`, home]);
  const wrap = (cmd: string, args: string[]): [string, string[]] =>
    asUser ? ['setpriv', ['--reuid', String(asUser.uid), '--regid', String(asUser.gid), '--init-groups', '--', cmd, ...args]] : [cmd, args];

  const [initCmd, initArgs] = wrap(path.join(bin, 'initdb'), [
    '-D', data, '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--auth-local=trust', '--auth-host=scram-sha-256',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: home });
  if (init.status !== 0) throw new Error(`initdb failed (${initCmd} ${initArgs.join(' ')}):\n${init.stderr}${init.stdout}`);

  const [cmd, args] = wrap(path.join(bin, 'postgres'), [
    '-D', data,
    '-c', `listen_addresses=${pgContract.host}`,
    '-c', `port=${ports.postgres}`,
    '-c', `unix_socket_directories=${socketDir}`,
    '-c', 'wal_level=logical',
    '-c', 'max_replication_slots=8',
    '-c', 'max_wal_senders=8',
    '-c', 'shared_buffers=64MB',
    '-c', 'fsync=off',
    '-c', 'synchronous_commit=off',
  ]);
  const child: Child = spawnLogged(cmd, args, { logFile: path.join(home, 'postgres.log'), cwd: home });
  const psqlBin = path.join(bin, 'psql');
  const exec = async (sql: string, database = pgContract.database): Promise<string> => {
    const { stdout } = await execFileAsync(
      psqlBin,
      ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', socketDir, '-p', String(ports.postgres), '-U', 'postgres', '-d', database, '-c', sql],
      { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
    );
    return stdout.trim();
  };
  const stop = async (): Promise<void> => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) return;
    // SIGINT is PostgreSQL's fast shutdown (SIGTERM, smart shutdown, would wait for Debezium's connections).
    child.process.kill('SIGINT');
    const timer = setTimeout(() => child.process.kill('SIGKILL'), 30_000);
    await child.exited;
    clearTimeout(timer);
  };
  try {
    await waitUntil(`PostgreSQL on ${pgContract.host}:${ports.postgres} (log: ${child.logFile})`, async () => {
      if (child.process.exitCode !== null) throw new Error(`PostgreSQL exited; see ${child.logFile}`);
      return (await accepts(ports.postgres, pgContract.host)) && (await exec('select 1', 'postgres')) === '1';
    }, 60_000, 250);
    await exec(`CREATE ROLE ${pgContract.user} WITH LOGIN REPLICATION PASSWORD '${pgContract.password}'`, 'postgres');
    await exec(`CREATE DATABASE ${pgContract.database} OWNER ${pgContract.user}`, 'postgres');
    await exec(
      [
        `CREATE SCHEMA ${pgContract.schema} AUTHORIZATION ${pgContract.user};`,
        `CREATE TABLE ${pgContract.schema}.${pgContract.table} (`,
        '  order_id integer PRIMARY KEY,',
        '  customer_id integer NOT NULL,',
        '  country char(2) NOT NULL,',
        '  status text NOT NULL,',
        '  amount numeric(10,2) NOT NULL,',
        '  updated_at timestamptz NOT NULL DEFAULT now()',
        ');',
        `ALTER TABLE ${pgContract.schema}.${pgContract.table} OWNER TO ${pgContract.user};`,
        // Whole rows in `before` of updates and deletes (the default identity gives only the key).
        `ALTER TABLE ${pgContract.schema}.${pgContract.table} REPLICA IDENTITY FULL;`,
        `CREATE PUBLICATION ${publicationName} FOR TABLE ${pgContract.schema}.${pgContract.table};`,
        `ALTER PUBLICATION ${publicationName} OWNER TO ${pgContract.user};`,
      ].join('\n'),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  log(`PostgreSQL ${path.basename(path.dirname(bin))} on ${pgContract.host}:${ports.postgres} (cluster ${data}, wal_level=logical)`);
  return { host: pgContract.host, port: ports.postgres, exec, stop };
}

/** ~20 orders over FR, DE, NL, US, among them the bad value (order 1007, FR, 99999.00 keyed in for 99.99). */
export async function seedOrders(pg: SeedPostgres): Promise<number> {
  const countries = ['FR', 'DE', 'NL', 'US'];
  const statuses = ['paid', 'open', 'paid', 'refunded', 'paid'];
  const rows: string[] = [];
  for (let i = 0; i < 20; i++) {
    const orderId = 1000 + i;
    const country = orderId === badValue.orderId ? badValue.country : countries[i % countries.length]!;
    const amount = orderId === badValue.orderId ? badValue.amount.toFixed(2) : (19.9 + ((i * 37) % 180) + (i % 3) * 0.45).toFixed(2);
    rows.push(`(${orderId}, ${200 + (i % 7)}, '${country}', '${statuses[i % statuses.length]}', ${amount}, timestamptz '2026-11-30 08:00:00+00' + interval '${i * 17} minutes')`);
  }
  await pg.exec(`INSERT INTO ${pgContract.schema}.${pgContract.table} (order_id, customer_id, country, status, amount, updated_at) VALUES\n${rows.join(',\n')}`);
  return rows.length;
}

/**
 * Changes made after Debezium's snapshot, so that streaming change events (op c, u, d) follow the
 * snapshot's reads (op r): three new orders, a payment, a refund, an amount correction and one
 * deletion. Returns the number of change events they produce (one record each on pg.shop.orders:
 * the connector sends no tombstones).
 */
export async function changeOrders(pg: SeedPostgres): Promise<number> {
  const t = `${pgContract.schema}.${pgContract.table}`;
  const statements = [
    `INSERT INTO ${t} (order_id, customer_id, country, status, amount) VALUES (1020, 204, 'DE', 'open', 42.50)`,
    `INSERT INTO ${t} (order_id, customer_id, country, status, amount) VALUES (1021, 201, 'NL', 'paid', 17.95)`,
    `INSERT INTO ${t} (order_id, customer_id, country, status, amount) VALUES (1022, 206, 'US', 'paid', 120.00)`,
    `UPDATE ${t} SET status = 'paid', updated_at = now() WHERE order_id = 1001`,
    `UPDATE ${t} SET status = 'refunded', updated_at = now() WHERE order_id = 1002`,
    `UPDATE ${t} SET amount = 64.30, updated_at = now() WHERE order_id = 1020`,
    `DELETE FROM ${t} WHERE order_id = 1018`,
  ];
  for (const sql of statements) await pg.exec(sql);
  return statements.length;
}

/** Debian's PostgreSQL server binaries; installs the `postgresql` package once when none is found. */
function findPostgresBin(log: Log): string {
  const find = (): string | null => {
    const root = '/usr/lib/postgresql';
    if (!fs.existsSync(root)) return null;
    const majors = fs.readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of majors) {
      const bin = path.join(root, v, 'bin');
      if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'postgres'))) return bin;
    }
    return null;
  };
  const found = find();
  if (found) return found;
  log('PostgreSQL server not found under /usr/lib/postgresql: trying `apt-get install -y postgresql`');
  const res = spawnSync('apt-get', ['install', '-y', 'postgresql'], { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const after = find();
  if (!after) {
    throw new Error(
      `PostgreSQL's server (initdb, postgres) is required and could not be installed: \`apt-get install -y postgresql\` exited ${res.status}` +
        `${res.error ? ` (${res.error.message})` : ''}:\n${(res.stderr ?? '').slice(-1500)}\nInstall Debian's postgresql package (as root) and retry.`,
    );
  }
  return after;
}

/** The unprivileged user to run initdb and the server as when we are root: `postgres` (Debian's), else `nobody`. */
function serverUser(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as (initdb refuses root)');
}
