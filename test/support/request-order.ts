let last = 0;

/**
 * One number per request, shared by every test server of this process (the GitHub API double,
 * the scripted model servers): which request came first across servers, whatever the clock.
 */
export function nextRequestOrder(): number {
  last += 1;
  return last;
}
