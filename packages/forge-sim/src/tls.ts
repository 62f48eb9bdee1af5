/**
 * A throwaway certificate for 127.0.0.1 and localhost (and any further host names given), generated at
 * start-up.
 */
import { generate } from 'selfsigned';

export async function selfSignedCertificate(names: string[] = []): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    notAfterDate: new Date(Date.now() + 30 * 86_400_000),
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...names.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}
