import dgram from 'node:dgram';

export interface TinyDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS / NodeDnsTxtResolver's `servers`. */
  address: string;
  /** TXT records by lowercase name; a name not here answers NXDOMAIN. */
  txt: Map<string, string[]>;
  close(): Promise<void>;
}

/**
 * A DNS server on 127.0.0.1 (UDP, ephemeral port) answering TXT questions from a map, so domain
 * verification runs through the real node:dns adapter (tests/http/sso.test.ts). Only what c-ares asks:
 * one question, TXT answers or NXDOMAIN; anything else answers no data.
 */
export async function startTinyDnsServer(): Promise<TinyDnsServer> {
  const txt = new Map<string, string[]>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, remote) => {
    if (query.length < 12) return;
    let offset = 12;
    const labels: string[] = [];
    while (offset < query.length && query[offset] !== 0) {
      const length = query[offset]!;
      labels.push(query.subarray(offset + 1, offset + 1 + length).toString('latin1'));
      offset += length + 1;
    }
    const questionEnd = offset + 5; // zero byte, type (2), class (2)
    if (questionEnd > query.length) return;
    const type = query.readUInt16BE(offset + 1);
    const records = txt.get(labels.join('.').toLowerCase());
    const answers = type === 16 && records ? records.map((value) => {
      const strings = Buffer.concat(chunk(Buffer.from(value, 'utf8'), 255).map((part) => Buffer.concat([Buffer.from([part.length]), part])));
      const head = Buffer.alloc(12);
      head.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      head.writeUInt16BE(16, 2);
      head.writeUInt16BE(1, 4);
      head.writeUInt32BE(60, 6);
      head.writeUInt16BE(strings.length, 10);
      return Buffer.concat([head, strings]);
    }) : [];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // id
    header.writeUInt16BE(0x8180 | (records ? 0 : 3), 2); // response, recursion desired and available; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, questionEnd), ...answers]), remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`, txt,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function chunk(bytes: Buffer, size: number): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return parts.length > 0 ? parts : [Buffer.alloc(0)];
}
