export {
  type AdminDeletePostInput,
  type AdminDeleteUserInput,
  adminDeletePostSchema,
  adminDeleteUserSchema,
} from "./admin.js";
export {
  type CreateApiKeyInput,
  createApiKeySchema,
  type RotateApiKeyInput,
  rotateApiKeySchema,
} from "./api-key.js";
export { type ChangePasswordInput, changePasswordSchema } from "./change-password.js";
export { type EventsQueryInput, eventsQuerySchema } from "./events.js";
export * as fields from "./fields.js";
export {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TOKEN_MAX_LENGTH,
} from "./fields.js";
export { type IdInput, idSchema } from "./id.js";
export { type ListingPatchInput, listingPatchSchema } from "./listing-patch.js";
export { type ListingQueryInput, listingQuerySchema } from "./listing-query.js";
export { type LogInInput, logInSchema } from "./log-in.js";
export {
  type MessageQueryInput,
  messageQuerySchema,
  type SendMessageInput,
  sendMessageSchema,
} from "./message.js";
export { type NewListingInput, newListingSchema } from "./new-listing.js";
export {
  type NotificationSettingsInput,
  notificationSettingsSchema,
  type UnsubscribeInput,
  unsubscribeSchema,
} from "./notifications.js";
export { type PageQueryInput, pageQuerySchema } from "./page-query.js";
export {
  type RequestPasswordResetInput,
  requestPasswordResetSchema,
  type UpdatePasswordInput,
  updatePasswordSchema,
} from "./password-reset.js";
export {
  type DisplayNamesInput,
  displayNamesSchema,
  type SyncProfileInput,
  syncProfileSchema,
  type UserIdInput,
  userIdSchema,
} from "./profile.js";
export { type CreateSavedSearchInput, createSavedSearchSchema } from "./saved-search.js";
export { type SignUpInput, signUpSchema } from "./sign-up.js";
export { type UpdateUserInput, updateUserSchema } from "./update-user.js";
export { type VerifyEmailInput, verifyEmailSchema } from "./verify-email.js";
export {
  type CreateWebhookInput,
  createWebhookSchema,
  type ReplayWebhookInput,
  replayWebhookSchema,
  type UpdateWebhookInput,
  updateWebhookSchema,
  type WebhookUrlInput,
  webhookUrlSchema,
} from "./webhooks.js";
