// The Activity's sign-in (issue 32), the Embedded App SDK's flow: authorize -> the bot
// exchanges the code with Discord (POST /api/token; the client secret never reaches the page)
// -> authenticate. Resolves to the session the table's WebSocket is opened with.

export async function signIn(sdk, clientId) {
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || `sign-in failed (${response.status})`);
  const auth = await sdk.commands.authenticate({ access_token: body.access_token });
  if (!auth) throw new Error("Discord did not accept the sign-in");
  return body.session;
}
