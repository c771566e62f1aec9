import { describe, expect, it } from 'vitest';
import { webhookUrlProblem } from './webhook-dispatcher.ts';

describe('webhookUrlProblem', () => {
  it('takes a public https URL', () => {
    expect(webhookUrlProblem('https://hooks.example.com/kino?token=abc', false)).toBeUndefined();
    expect(webhookUrlProblem('https://93.184.216.34/x', false)).toBeUndefined();
  });

  it.each([
    ['http://hooks.example.com/x', /https only/],
    ['ftp://hooks.example.com/x', /https only/],
    ['https://127.0.0.1/x', /public addresses/],
    ['https://10.1.2.3/x', /public addresses/],
    ['https://169.254.169.254/latest/meta-data', /public addresses/],
    ['https://[::1]/x', /public addresses/],
    ['https://[::ffff:127.0.0.1]/x', /public addresses/],
    ['https://[fd00::1]/x', /public addresses/],
    ['https://localhost/x', /public hosts/],
    ['https://api.localhost/x', /public hosts/],
    ['https://a:b@hooks.example.com/x', /credentials/],
    ['not a url', /not a URL/],
  ])('refuses %s', (url, reason) => {
    expect(webhookUrlProblem(url, false)).toMatch(reason);
  });

  it('allows plain http and private addresses only with WEBHOOK_ALLOW_PRIVATE', () => {
    expect(webhookUrlProblem('http://127.0.0.1:8080/x', true)).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1:8080/x', false)).toMatch(/https only/);
  });
});
