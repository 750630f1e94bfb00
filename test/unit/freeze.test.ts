import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { javaExecutable } from '../../src/graph/embedded/provision';
import { freezeProcess } from '../support/freeze';
import { scratchDir } from '../support/scratch';

/** A JVM HTTP server on a pool of threads (as Connect's and Neo4j's are): prints its port, answers "up". */
const SERVER = `
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
public class Up {
  public static void main(String[] a) throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
    s.setExecutor(Executors.newFixedThreadPool(4));
    s.createContext("/", x -> { byte[] b = "up".getBytes(); x.sendResponseHeaders(200, b.length); x.getResponseBody().write(b); x.close(); });
    s.start();
    System.out.println(s.getAddress().getPort());
  }
}`;

/**
 * The tests' SIGSTOP (support/freeze.ts). A plain SIGSTOP let this server answer 1–2 requests of 60
 * sent right after it; once frozen by the helper, none may be answered.
 */
describe('freezeProcess', () => {
  const procfs = fs.existsSync('/proc/self/task');
  it('resolves only once a multi-threaded JVM answers nothing: no request sent right after it is answered', { timeout: 120_000, skip: !procfs && 'no /proc here: the helper only sends SIGSTOP' }, async () => {
    const source = path.join(scratchDir('freeze-'), 'Up.java');
    fs.writeFileSync(source, SERVER);
    const java = javaExecutable({ searchPath: process.env.PATH ?? '', javaHome: process.env.JAVA_HOME });
    const server = spawn(java, [source], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      const url = `http://127.0.0.1:${Number(line.toString())}/`;
      const ask = (ms: number) => fetch(url, { signal: AbortSignal.timeout(ms) }).then((r) => r.text()).catch(() => null);
      let answered = 0;
      for (let i = 0; i < 60; i++) {
        assert.equal(await ask(10_000), 'up', 'answers while running');
        await freezeProcess(server.pid!);
        if ((await ask(100)) !== null) answered++;
        process.kill(server.pid!, 'SIGCONT');
      }
      assert.equal(answered, 0, 'answered while frozen');
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('says so when the process is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await once(gone, 'exit');
    await assert.rejects(freezeProcess(gone.pid!, 200));
  });
});
