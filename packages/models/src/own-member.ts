/**
 * Sets `obj[key]` to `value` as JSON.parse would: a "__proto__" key (a valid ConfigMap key, map key
 * or label value) becomes a member; a plain assignment would set the object's prototype instead.
 */
export function setMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
