// Signing in as a Discord Activity. Inside Discord (the iframe's URL has frame_id) the
// Embedded App SDK's flow: ready(), authorize() for a code, POST /api/token (the server
// exchanges the code with the application's secret, checks the instance and opens a
// session), then authenticate() with the access token. Outside Discord the SDK's mock
// stands in only when the server says it runs in a test or local mode; a local player
// (reel web) plays with no sign-in; anywhere else the page says where it runs.

import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { type ActivityConfig, MAX_USERS, type SignedIn, type SignInRequest } from "./wire";

type Sdk = DiscordSDK | DiscordSDKMock;

export type Config = ActivityConfig;

export type Boot =
  | { kind: "local" } // reel web, or a local player named by the operator
  | { kind: "outside"; reason: string } // not in Discord, and no local player
  | { kind: "signed"; session: string; user: { id: string; name: string }; sdk: Sdk };

export const OUTSIDE =
  "Virginia Reel's board runs inside Discord, as an Activity: open it from a voice channel's Activities, or with the Play on the board button under a board in chat. On your own computer, play it with reel web.";

export const READY_WAIT_S = 15; // seconds Discord has to answer the SDK's ready()
export const NO_READY = `Discord did not answer the Activity's start within ${READY_WAIT_S} seconds (the Embedded App SDK's ready()), so nobody is signed in: close the Activity and open it again. If it keeps happening, the page is not in Discord's Activity frame, or Discord's client needs an update.`;

export const SIGN_IN_WAIT_S = 20; // seconds each step of the sign-in may take
const AGAIN = "close the Activity and open it again.";
const NO_SIGN_IN = `The sign-in failed: ${AGAIN}`;

/** ``work``, or a rejection with ``message`` if it is not done within ``seconds``. */
function within<T>(work: Promise<T>, seconds: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error(message)), seconds * 1000);
    work.then(
      (value) => {
        window.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        window.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

async function config(): Promise<Config> {
  try {
    const answer = await fetch("/api/activity", { cache: "no-store" });
    if (answer.ok) return (await answer.json()) as Config;
  } catch {
    // no answer: the local board, as before the Activity
  }
  return { client_id: null, mock: false, local: true };
}

/** The mock SDK of a test or local mode: the instance, server, channel and the code its
 * authorize gives come from the page's address (the test's fake Discord knows them). */
function mock(clientId: string, query: URLSearchParams): DiscordSDKMock {
  const sdk = new DiscordSDKMock(clientId, query.get("guild_id"), query.get("channel_id"), null);
  const instance = query.get("instance_id");
  if (instance) Object.defineProperty(sdk, "instanceId", { value: instance });
  const code = query.get("mock_code") ?? "mock_code";
  sdk._updateCommandMocks({ authorize: async () => ({ code }) });
  return sdk;
}

/** Sign in; ``progress`` is told what the page waits for. */
export async function boot(progress: (text: string) => void = () => {}): Promise<Boot> {
  const found = await config();
  const query = new URLSearchParams(location.search);
  const clientId = found.client_id;
  let sdk: Sdk;
  if (clientId !== null && query.has("frame_id")) sdk = new DiscordSDK(clientId);
  else if (clientId !== null && found.mock) sdk = mock(clientId, query);
  else return found.local ? { kind: "local" } : { kind: "outside", reason: OUTSIDE };
  progress("Waiting for Discord…");
  try {
    await within(sdk.ready(), READY_WAIT_S, NO_READY);
  } catch (error) {
    return { kind: "outside", reason: error instanceof Error ? error.message : NO_READY };
  }
  progress("Signing in…");
  try {
    return await signIn(sdk, clientId);
  } catch (error) {
    return { kind: "outside", reason: error instanceof Error ? error.message : NO_SIGN_IN };
  }
}

/** The sign-in after ready(): each step bounded, so that the page never waits for ever. */
async function signIn(sdk: Sdk, clientId: string): Promise<Boot> {
  const { code } = await within(
    sdk.commands.authorize({
      client_id: clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    }),
    SIGN_IN_WAIT_S,
    `Discord did not answer the sign-in within ${SIGN_IN_WAIT_S} seconds: ${AGAIN}`,
  );
  const answer = await within(
    fetch("/api/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code, instance_id: sdk.instanceId } satisfies SignInRequest),
    }),
    SIGN_IN_WAIT_S,
    `The board's server did not answer the sign-in within ${SIGN_IN_WAIT_S} seconds: ${AGAIN}`,
  );
  const signed = (await answer.json()) as SignedIn & { message?: string }; // (refused: an error frame)
  if (!answer.ok) return { kind: "outside", reason: signed.message ?? `Sign-in failed (HTTP ${answer.status}).` };
  await within(
    sdk.commands.authenticate({ access_token: signed.access_token }),
    SIGN_IN_WAIT_S,
    `Discord did not confirm the sign-in within ${SIGN_IN_WAIT_S} seconds: ${AGAIN}`,
  );
  return { kind: "signed", session: signed.session, user: signed.user, sdk };
}

/** Tell the server who the SDK says is in the instance, now and at every change (it keeps
 * only those Discord's own lookup lists too). */
export async function followParticipants(sdk: Sdk, send: (ids: string[]) => void): Promise<void> {
  const report = (participants: { id: string }[]) => send(participants.map((p) => p.id).slice(0, MAX_USERS));
  try {
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    report(participants);
    await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", (event: { participants: { id: string }[] }) =>
      report(event.participants),
    );
  } catch {
    // the list is only shown: the server decides who plays
  }
}
