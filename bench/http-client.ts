import http from 'node:http';

/**
 * POSTs JSON over a keep-alive connection with node:http (the client a catalog or BI tool would
 * use; Node's fetch adds about a millisecond per request in this process, which is not the API's).
 */
export function postJson(agent: http.Agent, port: number, urlPath: string, body: unknown): Promise<{ status: number; text: string }> {
  return send(agent, port, 'POST', urlPath, JSON.stringify(body));
}

/** One request with a body already serialised (or none), over a keep-alive agent; the answer's status, text and headers. */
export function send(agent: http.Agent, port: number, method: 'GET' | 'POST', urlPath: string, text?: string): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const req = http.request({ host: '127.0.0.1', port, path: urlPath, method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}
