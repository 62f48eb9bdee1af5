import { describe, expect, it } from 'vitest';
import { addressMatcher, clientAddress } from './peers.js';

const req = (peer: string, xff?: string | string[]) => ({
  socket: { remoteAddress: peer },
  headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
});

describe('the address a budget charges', () => {
  const trusted = addressMatcher(['10.0.0.0/8', '192.168.1.1']);
  const h = 'X-Forwarded-For';

  it('is the peer without a trusted header or from an unlisted peer', () => {
    expect(clientAddress(req('::ffff:203.0.113.9', '1.2.3.4'), undefined, trusted)).toBe('203.0.113.9');
    expect(clientAddress(req('203.0.113.9', '1.2.3.4'), h, trusted)).toBe('203.0.113.9');
    expect(clientAddress(req('10.0.0.1'), h, trusted)).toBe('10.0.0.1');
  });

  it('reads X-Forwarded-For from the right, skipping listed hops', () => {
    expect(clientAddress(req('10.0.0.1', '198.51.100.7, 1.2.3.4, 192.168.1.1, 10.9.9.9'), h, trusted)).toBe(
      '1.2.3.4',
    );
    expect(clientAddress(req('10.0.0.1', ['198.51.100.7', '10.1.1.1']), h, trusted)).toBe('198.51.100.7');
    expect(clientAddress(req('10.0.0.1', '[2001:db8::1]:443, 10.1.1.1:80'), h, trusted)).toBe('2001:db8::1');
    expect(clientAddress(req('10.0.0.1', '10.2.2.2, 10.1.1.1'), h, trusted)).toBe('10.2.2.2');
  });

  it('charges the peer when a hop is not an address', () => {
    expect(clientAddress(req('10.0.0.1', '1.2.3.4, unknown, 10.1.1.1'), h, trusted)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1', '1.2.3.4, _hidden'), h, trusted)).toBe('10.0.0.1');
  });
});
