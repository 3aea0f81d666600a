export interface Page<T> {
  readonly items: readonly T[];
  /** GitHub's `Link` header, or undefined when everything fits on one page. */
  readonly link: string | undefined;
}

/**
 * Slices a listing the way GitHub does: `per_page` defaults to 30 and is silently capped (100
 * for most listings), `page` counts from 1, and the `Link` header names prev, next, last and
 * first pages in that order, each with the request's other query parameters kept.
 */
export function paginate<T>(
  items: readonly T[],
  params: Readonly<Record<string, unknown>>,
  requestUrl: URL,
  apiUrl: string,
  limits: { defaultPerPage?: number; maxPerPage?: number } = {},
): Page<T> {
  const maxPerPage = limits.maxPerPage ?? 100;
  const requested = typeof params.per_page === 'number' ? params.per_page : undefined;
  const perPage = Math.min(Math.max(requested ?? limits.defaultPerPage ?? 30, 1), maxPerPage);
  const page = Math.max(typeof params.page === 'number' ? params.page : 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const slice = items.slice((page - 1) * perPage, page * perPage);
  if (last === 1 && page === 1) return { items: slice, link: undefined };

  const urlOf = (target: number): string => {
    const url = new URL(requestUrl.pathname + requestUrl.search, apiUrl);
    url.searchParams.set('page', String(target));
    return url.toString();
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${urlOf(Math.min(page - 1, last))}>; rel="prev"`);
  if (page < last) {
    links.push(`<${urlOf(page + 1)}>; rel="next"`);
    links.push(`<${urlOf(last)}>; rel="last"`);
  }
  if (page > 1) links.push(`<${urlOf(1)}>; rel="first"`);
  return { items: slice, link: links.length === 0 ? undefined : links.join(', ') };
}
