// The game-servers module's entry for other modules: the provider of this app and its state type,
// the allocation of a match's server (the matches module arms `allocateJob`, the admin's move runs
// `allocateServer`), and the providers' classes. The plugin (`gameserversModule`: routes, jobs, the
// `match.ended` listener) is in routes.ts.
import type { AppContext } from '../../context';
import { MatchzyProvider } from './matchzy-provider';
import type { GameServerProvider } from './provider';
import { SimulatorProvider } from './simulator';

export { allocateJob, allocateServer } from './allocation';
export { GameServerUnavailableError } from './matchzy-provider';
export { SimulatorProvider };

/** The game-servers module's per-app state (`ctx.state.gameservers`). */
export interface GameserversModuleState {
  /** Created from GAME_SERVER_PROVIDER on first use; tests set another pool or a fake. */
  provider?: GameServerProvider;
}

function createProvider(ctx: AppContext): GameServerProvider {
  if (ctx.config.GAME_SERVER_PROVIDER === 'matchzy')
    return new MatchzyProvider(ctx, ctx.config.cs2Servers, { timeoutMs: ctx.config.CS2_RCON_TIMEOUT_MS });
  return new SimulatorProvider(ctx);
}

export function providerOf(ctx: AppContext): GameServerProvider {
  ctx.state.gameservers.provider ??= createProvider(ctx);
  return ctx.state.gameservers.provider;
}

/** Lets tests choose the provider (another pool, a fake). */
export function setProvider(ctx: AppContext, provider: GameServerProvider): void {
  ctx.state.gameservers.provider = provider;
}
