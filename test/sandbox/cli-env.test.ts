import { describe, expect, it } from 'vitest';
import { ConfigError, optionsFromEnv } from '../../src/sandbox/cli-env.js';

describe('sandbox CLI environment', () => {
  it('reads every variable', () => {
    expect(
      optionsFromEnv({
        SANDBOX_PORT: '9001',
        SANDBOX_SEED: '7',
        SANDBOX_SIZE: '40000',
        SANDBOX_LATENCY_MS: '10-50',
        SANDBOX_FAULT_RATE: '0.05',
        SANDBOX_FAULT_KINDS: '503, 429,reset',
        SANDBOX_DATA_NOW: '2026-11-15',
      }),
    ).toEqual({
      port: 9001,
      seed: 7,
      size: 40000,
      latencyMs: [10, 50],
      faultRate: 0.05,
      faultKinds: ['503', '429', 'reset'],
      dataNow: new Date('2026-11-15T00:00:00Z'),
    });
    const defaults = optionsFromEnv({ SANDBOX_LATENCY_MS: '20' });
    expect(defaults.port).toBe(8787);
    expect(defaults.latencyMs).toBe(20);
    expect(defaults.dataNow!.getUTCHours()).toBe(0);
  });

  it.each([
    ['SANDBOX_PORT', 'eighty', /SANDBOX_PORT: 'eighty' must be a whole number/],
    ['SANDBOX_SIZE', '0', /SANDBOX_SIZE/],
    ['SANDBOX_LATENCY_MS', '50-10', /maximum below its minimum/],
    ['SANDBOX_FAULT_RATE', '1.5', /SANDBOX_FAULT_RATE: '1.5' must be a number from 0 to 1/],
    ['SANDBOX_FAULT_KINDS', '503,teapot', /SANDBOX_FAULT_KINDS: 'teapot' is not a fault kind/],
    ['SANDBOX_DATA_NOW', '15/11/2026', /SANDBOX_DATA_NOW/],
  ])('refuses a bad %s', (name, value, message) => {
    expect(() => optionsFromEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => optionsFromEnv({ [name]: value })).toThrow(message);
  });
});
