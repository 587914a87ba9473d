/** Validation of elicitation requests: form mode, a short message, a flat schema of primitive fields. */
import { describe, expect, it } from 'vitest';

import { DEFAULT_REQUEST_LIMITS } from '../../../src/host/policies/limits.js';
import { validateInputRequest } from '../../../src/host/policies/validateRequest.js';
import { hostErrorOf, position } from './positions.js';

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
});
const validate = (params: unknown) =>
  validateInputRequest({ key: 'who', method: 'elicitation/create', params }, DEFAULT_REQUEST_LIMITS, position(4));
const refusal = (params: unknown) => hostErrorOf(() => validate(params));

describe('validateInputRequest: elicitation', () => {
  it('accepts a form with every primitive field kind and drops what it does not know', () => {
    const properties = {
      name: { type: 'string', title: 'Name', minLength: 1, maxLength: 40, format: 'email', extra: 1 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      score: { type: 'number', default: 0.5 },
      agree: { type: 'boolean', default: false },
      color: { type: 'string', enum: ['red', 'blue'], enumNames: ['Red', 'Blue'] },
      size: { type: 'string', oneOf: [{ const: 's', title: 'Small' }] },
    };
    const valid = validate({
      mode: 'form',
      message: 'Tell me',
      requestedSchema: schema(properties, { required: ['name'], $schema: 'x' }),
      unknown: true,
    });
    const { extra: _extra, ...name } = properties.name;
    expect(valid).toEqual({
      key: 'who',
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Tell me',
        requestedSchema: { type: 'object', properties: { ...properties, name }, required: ['name'] },
      },
    });
  });

  it('treats an absent mode as form and refuses any other mode', () => {
    expect(() => validate({ message: 'm', requestedSchema: schema({}) })).not.toThrow();
    const error = refusal({ mode: 'url', message: 'm', url: 'https://example.com', elicitationId: 'e' });
    expect(error.code).toBe('request_invalid');
    expect(error.message).toContain('elicitation mode "url": only "form" is shown');
    expect(error.detail).toEqual({ key: 'who', round: 4 });
  });

  it('limits the message to 4 KiB of UTF-8', () => {
    expect(() => validate({ message: 'a'.repeat(4096), requestedSchema: schema({}) })).not.toThrow();
    const error = refusal({ message: '€'.repeat(1366), requestedSchema: schema({}) }); // 4098 bytes
    expect(error.message).toContain('message is over 4096 bytes');
    expect(refusal({ requestedSchema: schema({}) }).message).toContain('message must be a string');
  });

  it('refuses nested, non-enum array and unknown field schemas, naming the field', () => {
    for (const field of [
      { type: 'object', properties: {} },
      { type: 'array', items: { type: 'object' } },
      { type: 'date' },
      { type: 'string', enum: [] },
      { type: 'number', minimum: 'zero' },
    ]) {
      const error = refusal({ message: 'm', requestedSchema: schema({ field }) });
      expect(error.code).toBe('request_invalid');
      expect(error.message).toContain('requestedSchema.properties."field" must be a string, number');
    }
  });

  it('requires an object schema whose required names are properties', () => {
    expect(refusal({ message: 'm', requestedSchema: { type: 'array' } }).message).toContain('requestedSchema must be');
    expect(refusal({ message: 'm', requestedSchema: schema({}, { required: 'a' }) }).message).toContain(
      'required must be an array of strings',
    );
    const error = refusal({ message: 'm', requestedSchema: schema({ a: { type: 'boolean' } }, { required: ['b'] }) });
    expect(error.message).toContain('requestedSchema.required names "b", not a property');
  });

  it('bounds the whole request by maxMessageBytes', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, index) => [`field${index}`, { type: 'string' }]),
    );
    const error = refusal({ message: 'm', requestedSchema: schema(properties) });
    expect(error.message).toContain('elicitation params are over 262144 bytes');
  });
});

describe('validateInputRequest: multi-select fields (2025-11-25 and 2026-07-28 alike)', () => {
  it('accepts an array of enum strings and one of titled options, with their bounds and default', () => {
    const properties = {
      colors: {
        type: 'array',
        title: 'Colors',
        minItems: 1,
        maxItems: 2,
        items: { type: 'string', enum: ['red', 'blue'] },
        default: ['red'],
      },
      sizes: {
        type: 'array',
        items: {
          anyOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
      },
    };
    const valid = validate({ message: 'Pick', requestedSchema: schema(properties) });
    expect(valid.params).toEqual({ message: 'Pick', requestedSchema: { type: 'object', properties } });
  });

  it.each([
    ['items of another type', { type: 'array', items: { type: 'number' } }],
    ['an empty enum', { type: 'array', items: { type: 'string', enum: [] } }],
    ['no items', { type: 'array' }],
    [
      'a default that is not an array of strings',
      { type: 'array', items: { type: 'string', enum: ['a'] }, default: 'a' },
    ],
  ])('refuses %s', (_name, field) => {
    expect(refusal({ message: 'Pick', requestedSchema: schema({ field }) })?.code).toBe('request_invalid');
  });
});
