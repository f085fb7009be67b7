const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID (any version, any case): the one check every layer uses. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
