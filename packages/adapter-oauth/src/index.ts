/**
 * @psm/adapter-oauth: the marketplace as its own OAuth 2.1 authorization server, the machine half
 * (the consent page is adapter-web's). `createOAuthSurface(options)` mounts under the host.
 */
export { apiResourceMetadata, authorizationServerMetadata, OAUTH_PATHS } from "./metadata.js";
export {
  createOAuthApp,
  createOAuthSurface,
  OAUTH_PRIVATE_PATHS,
  type OAuthSurfaceOptions,
} from "./surface.js";
