// The online list: the server's pages merged with what this device holds. The device's copy
// of a listed record wins (it is the server's last copy plus this device's unsynced
// changes), and a record the server has never sent (made here, not pushed and pulled back
// yet) joins the list, but only among the pages already loaded: one older than the last
// server row would jump when the next page came. Decision 058 (the rule Cases Logged kept, decision 010).

export interface MergeOptions<T> {
  /** What makes two rows the same record on both sides (a case number, an id). */
  keyOf: (item: T) => string;
  /** The record's id, as the device's set of device-only ids holds it. */
  idOf: (item: T) => string;
  /** The list's order: negative when `a` comes first (newest first). */
  compare: (a: T, b: T) => number;
}

/** Device and server rows as one list in the list's order, one per key; the device's wins. */
export function mergeByKey<T>(
  device: readonly T[],
  server: readonly T[],
  { keyOf, compare }: Pick<MergeOptions<T>, 'keyOf' | 'compare'>,
): T[] {
  const byKey = new Map<string, T>();
  for (const item of server) byKey.set(keyOf(item), item);
  for (const item of device) byKey.set(keyOf(item), item);
  return [...byKey.values()].sort(compare);
}

/** The server's loaded pages with the device's rows merged in (see the file comment). */
export function mergeServerAndDevice<T>(
  server: readonly T[],
  device: { items: readonly T[]; deviceOnlyIds: ReadonlySet<string> } | null | undefined,
  morePages: boolean,
  options: MergeOptions<T>,
): T[] {
  if (!device) return [...server];
  const onServerList = new Set(server.map(options.keyOf));
  const last = server.at(-1);
  const belongs = (item: T) => !morePages || !last || options.compare(item, last) <= 0;
  const fromDevice = device.items.filter(
    (item) =>
      onServerList.has(options.keyOf(item)) ||
      (device.deviceOnlyIds.has(options.idOf(item)) && belongs(item)),
  );
  return mergeByKey(fromDevice, server, options);
}
