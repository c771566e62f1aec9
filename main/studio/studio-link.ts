// The link that opens the studio of a workspace: the token rides in the fragment, which never reaches
// a server, a log or a Referer; the page moves it into the tab's storage.
export function studioLink(connection: { endpoint: string; token: string }): string {
  return `${connection.endpoint}/studio/#token=${encodeURIComponent(connection.token)}`;
}
