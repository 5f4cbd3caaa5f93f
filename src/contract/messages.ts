import type { MessageDescriptor } from '@lingui/core';

/**
 * The fixed messages of the error catalogue (spec §8) and of the server's error mapping.
 * Plain descriptors marked for extraction, not macros: this file also runs in Node and in the
 * service worker, where no macro transform happens. Explicit ids keep them stable for translators.
 */
export const messages = {
  requestFailed: /*i18n*/ { id: 'api.requestFailed', message: 'Request failed' },
  networkError: /*i18n*/ { id: 'api.networkError', message: 'Network error or server unavailable' },
  validationFailed: /*i18n*/ { id: 'error.validationFailed', message: 'Some fields are not valid' },
  malformedJson: /*i18n*/ { id: 'error.malformedJson', message: 'The request body is not valid JSON' },
  unsupportedMediaType: /*i18n*/ { id: 'error.unsupportedMediaType', message: 'This content type is not supported' },
  payloadTooLarge: /*i18n*/ { id: 'error.payloadTooLarge', message: 'The request is too large' },
  routeNotFound: /*i18n*/ { id: 'error.routeNotFound', message: 'There is no such API endpoint' },
  notFound: /*i18n*/ { id: 'error.notFound', message: 'Not found' },
  badRequest: /*i18n*/ { id: 'error.badRequest', message: 'The request could not be understood' },
  internal: /*i18n*/ { id: 'error.internal', message: 'Something went wrong on the server. Please try again.' },
  unavailable: /*i18n*/ { id: 'error.unavailable', message: 'The service is temporarily unavailable' },
  tooManyRequests: /*i18n*/ { id: 'error.tooManyRequests', message: 'Too many attempts. Please wait a few minutes and try again.' },
  unauthenticated: /*i18n*/ { id: 'error.unauthenticated', message: 'Please sign in again.' },
  forbidden: /*i18n*/ { id: 'error.forbidden', message: 'You are not allowed to do this.' },

  // Field rules (schemas carry these ids as their messages).
  required: /*i18n*/ { id: 'field.required', message: 'This field is required' },
  emailFormat: /*i18n*/ { id: 'field.emailFormat', message: 'Please enter a valid email address' },
  pinFormat: /*i18n*/ { id: 'field.pinFormat', message: 'The PIN has 6 digits' },
  passwordTooShort: /*i18n*/ { id: 'field.passwordTooShort', message: 'The password needs at least 8 characters' },
  passwordTooLong: /*i18n*/ { id: 'field.passwordTooLong', message: 'The password may have at most 256 characters' },
  usernameFormat: /*i18n*/ { id: 'field.usernameFormat', message: 'Use 3 to 50 letters, digits, dots, dashes or underscores' },
  passwordsDiffer: /*i18n*/ { id: 'field.passwordsDiffer', message: 'The passwords do not match' },

  // Sign-in and account (server answers).
  invalidCredentials: /*i18n*/ { id: 'auth.invalidCredentials', message: 'The email, username or password is wrong.' },
  accountSuspended: /*i18n*/ { id: 'auth.accountSuspended', message: 'This account is suspended. Please contact your administrator.' },
  pinSent: /*i18n*/ { id: 'auth.pinSent', message: 'We have sent a PIN to your email address.' },
  invalidPin: /*i18n*/ { id: 'auth.invalidPin', message: 'The PIN is wrong or has expired.' },
  pinLocked: /*i18n*/ { id: 'auth.pinLocked', message: 'Too many wrong PINs. Please start again to get a new one.' },
  resetPinSent: /*i18n*/ { id: 'auth.resetPinSent', message: 'If an account uses this email address, we have sent a PIN to it.' },
  resetTokenInvalid: /*i18n*/ { id: 'auth.resetTokenInvalid', message: 'This reset has expired. Please request a new PIN.' },
  passwordResetDone: /*i18n*/ { id: 'auth.passwordResetDone', message: 'Your password has been changed. Please sign in.' },
  loggedOut: /*i18n*/ { id: 'auth.loggedOut', message: 'You have been signed out.' },
  wrongCurrentPassword: /*i18n*/ { id: 'auth.wrongCurrentPassword', message: 'The current password is wrong.' },
  passwordChanged: /*i18n*/ { id: 'auth.passwordChanged', message: 'Your password has been changed. Your other devices have been signed out.' },
  profileUpdated: /*i18n*/ { id: 'auth.profileUpdated', message: 'Profile updated' },
  usernameTaken: /*i18n*/ { id: 'auth.usernameTaken', message: 'This username is already taken.' },
  deviceSignedOut: /*i18n*/ { id: 'auth.deviceSignedOut', message: 'The device has been signed out.' },
  deviceLabel: /*i18n*/ { id: 'auth.deviceLabel', message: '{browser} on {os}' },
  unknownDevice: /*i18n*/ { id: 'auth.unknownDevice', message: 'Unknown device' },
  mailFailed: /*i18n*/ { id: 'auth.mailFailed', message: 'We could not send the PIN mail. Please try again in a few minutes.' },

  // The client's fixed messages (spec §8).
  loginFailed: /*i18n*/ { id: 'spec.loginFailed', message: 'Login failed' },
  pinVerificationFailed: /*i18n*/ { id: 'spec.pinVerificationFailed', message: 'PIN verification failed' },
  resetRequestFailed: /*i18n*/ { id: 'spec.resetRequestFailed', message: 'Password reset request failed' },
  passwordResetFailed: /*i18n*/ { id: 'spec.passwordResetFailed', message: 'Password reset failed' },
  changePasswordFailed: /*i18n*/ { id: 'spec.changePasswordFailed', message: 'Failed to change password' },
  languagesLoadFailed: /*i18n*/ { id: 'spec.languagesLoadFailed', message: 'Failed to load languages' },
  languageUpdateFailed: /*i18n*/ { id: 'spec.languageUpdateFailed', message: 'Failed to update language' },
  languageUpdated: /*i18n*/ { id: 'spec.languageUpdated', message: 'Language updated successfully!' },

  // Resources (spec §8's "Failed to … X" and the default delete message; DESIGN §4's wire rules).
  loadFailed: /*i18n*/ { id: 'resource.loadFailed', message: 'Failed to load {items}' },
  createFailed: /*i18n*/ { id: 'resource.createFailed', message: 'Failed to create {item}' },
  updateFailed: /*i18n*/ { id: 'resource.updateFailed', message: 'Failed to update {item}' },
  deleteFailed: /*i18n*/ { id: 'resource.deleteFailed', message: 'Failed to delete {item}' },
  created: /*i18n*/ { id: 'resource.created', message: '{Item} created successfully' },
  updated: /*i18n*/ { id: 'resource.updated', message: '{Item} updated successfully' },
  deleted: /*i18n*/ { id: 'resource.deleted', message: '{Item} deleted successfully' },
  versionConflict: /*i18n*/ { id: 'resource.versionConflict', message: 'Someone else changed this {item} in the meantime.' },
  versionRequired: /*i18n*/ { id: 'resource.versionRequired', message: 'Send the version you edited in the If-Match header.' },
  idempotencyReused: /*i18n*/ { id: 'resource.idempotencyReused', message: 'This Idempotency-Key was already used for a different request.' },
  idempotencyInFlight: /*i18n*/ { id: 'resource.idempotencyInFlight', message: 'A request with this Idempotency-Key is still being processed.' },
  idempotencyKeyFormat: /*i18n*/ { id: 'resource.idempotencyKeyFormat', message: 'The Idempotency-Key header must be a UUID.' },
  shownOnce: /*i18n*/ { id: 'resource.shownOnce', message: 'The key was shown only once, when it was made, and is not kept: if you did not copy it, make a new one.' },
  nestedTooDeep: /*i18n*/ { id: 'error.nestedTooDeep', message: 'The request nests its values too deeply.' },
  valueTaken: /*i18n*/ { id: 'field.valueTaken', message: 'This value is already in use' },
  unknownReference: /*i18n*/ { id: 'field.unknownReference', message: 'This entry does not exist (any more)' },
  stillInUse: /*i18n*/ { id: 'resource.stillInUse', message: 'This {item} is still in use and cannot be deleted.' },
  languageCodeFormat: /*i18n*/ { id: 'field.languageCodeFormat', message: 'Use a language code such as en, de or pt-BR' },
  tooLong: /*i18n*/ { id: 'field.tooLong', message: 'This text is too long' },
  tooLongAsStored: /*i18n*/ { id: 'field.tooLongAsStored', message: 'This text is too long once saved: formatting and special characters such as & count several times.' },
  urlFormat: /*i18n*/ { id: 'field.urlFormat', message: 'Use an address starting with https:// (or mailto: for mail)' },
  senderFormat: /*i18n*/ { id: 'field.senderFormat', message: 'Use an address such as Agency <mail@agency.example>' },
  previewAddressFormat: /*i18n*/ { id: 'field.previewAddressFormat', message: 'Use an address starting with https://, without ? or #' },
  domainFormat: /*i18n*/ { id: 'field.domainFormat', message: 'Use a domain such as example.com, without https://' },
  subcategoryOfOtherCategory: /*i18n*/ { id: 'field.subcategoryOfOtherCategory', message: 'This subcategory belongs to another category' },
  /** Any rule a schema states without a message of its own. */
  invalidValue: /*i18n*/ { id: 'field.invalid', message: 'This value is not valid' },

  // Accounts.
  inviteMailFailed: /*i18n*/ { id: 'account.inviteMailFailed', message: 'We could not send the mail with the PIN. Nothing was changed; please try again later.' },
  resetMailed: /*i18n*/ { id: 'account.resetMailed', message: 'A PIN to choose a new password has been mailed to {email}.' },
  ownAdminStanding: /*i18n*/ { id: 'account.ownAdminStanding', message: 'You cannot delete, suspend or demote your own account.' },
  notAnOwner: /*i18n*/ { id: 'account.notAnOwner', message: 'Choose an owner or partner account.' },
  lastAdmin: /*i18n*/ { id: 'account.lastAdmin', message: 'This is the last active admin: make another admin first.' },

  apiKeyEnabled: /*i18n*/ { id: 'apiKey.enabled', message: 'The API key is active again.' },
  apiKeyDisabled: /*i18n*/ { id: 'apiKey.disabled', message: 'The API key is switched off: websites using it get no content until it is active again.' },
  previewFailed: /*i18n*/ { id: 'preview.failed', message: 'Could not open the preview' },
  previewInvalid: /*i18n*/ { id: 'preview.invalid', message: 'This preview link has expired or belongs to another website: open the preview again from the CMS.' },
  previewNoAddress: /*i18n*/ { id: 'preview.noAddress', message: 'The website has no preview address yet: add it in the website’s settings, then preview again.' },
  apiKeyInvalid: /*i18n*/ { id: 'apiKey.invalid', message: 'Send an active API key of the website in the X-API-Key header.' },

  // Uploads.
  fileTooLarge: /*i18n*/ { id: 'upload.fileTooLarge', message: 'The file is too large.' },
  fileEmpty: /*i18n*/ { id: 'upload.fileEmpty', message: 'The file is empty.' },
  fileMissing: /*i18n*/ { id: 'upload.fileMissing', message: 'Choose a file to upload.' },
  imageTypeRefused: /*i18n*/ { id: 'upload.imageTypeRefused', message: 'Only JPEG, PNG, WebP, GIF and AVIF images can be uploaded.' },
  imageUnreadable: /*i18n*/ { id: 'upload.imageUnreadable', message: 'This image could not be read.' },
  imageTooManyPixels: /*i18n*/ { id: 'upload.imageTooManyPixels', message: 'This image has too many pixels.' },
  mediaTypeRefused: /*i18n*/ { id: 'upload.mediaTypeRefused', message: 'Only JPEG, PNG, WebP, GIF and AVIF images and PDF files can be uploaded.' },
  svgRefused: /*i18n*/ { id: 'upload.svgRefused', message: 'SVG files cannot be uploaded, as they can contain scripts. Save the image as PNG or WebP and upload that.' },
  filesUploaded: /*i18n*/ { id: 'upload.filesUploaded', message: '{count, plural, one {# file uploaded} other {# files uploaded}}' },
  uploadFailed: /*i18n*/ { id: 'spec.uploadFailed', message: 'Upload failed' },
  uploadIncomplete: /*i18n*/ { id: 'upload.incomplete', message: 'The upload arrived incomplete or damaged. Please try again.' },

  // CMS content.
  slugFormat: /*i18n*/ { id: 'field.slugFormat', message: 'Use lower-case letters, digits and dashes, such as about-us' },
  linkTarget: /*i18n*/ { id: 'field.linkTarget', message: 'Choose a page or enter an address, not both' },
  parentOutsideMenu: /*i18n*/ { id: 'field.parentOutsideMenu', message: 'An item cannot be placed under itself or one of its own sub-items' },
  reorderMenuItemsFailed: /*i18n*/ { id: 'spec.reorderMenuItemsFailed', message: 'Failed to reorder menu items' },
  slideOrderFailed: /*i18n*/ { id: 'spec.slideOrderFailed', message: 'Failed to update slide order' },
  orderSaved: /*i18n*/ { id: 'order.saved', message: 'Order saved' },
  orderConflict: /*i18n*/ { id: 'order.conflict', message: 'Someone else changed this order in the meantime.' },
  orderMismatch: /*i18n*/ { id: 'order.mismatch', message: 'The new order must name each item exactly once.' },

  // Gastronomy menus and contact forms (spec §8's fixed messages, and the reorders' own).
  allergenIdentifierFormat: /*i18n*/ { id: 'field.allergenIdentifierFormat', message: 'Use one to three letters or digits, such as A' },
  noMenuData: /*i18n*/ { id: 'spec.noMenuData', message: 'No menu data returned from server' },
  cleanupAllergensFailed: /*i18n*/ { id: 'spec.cleanupAllergensFailed', message: 'Failed to cleanup orphaned allergens' },
  categoryOrderFailed: /*i18n*/ { id: 'gastro.categoryOrderFailed', message: 'Failed to reorder the categories' },
  itemOrderFailed: /*i18n*/ { id: 'gastro.itemOrderFailed', message: 'Failed to reorder the menu entries' },
  smtpSaveFailed: /*i18n*/ { id: 'spec.smtpSaveFailed', message: 'Failed to save SMTP configuration' },
  smtpTestFailed: /*i18n*/ { id: 'spec.smtpTestFailed', message: 'Failed to test SMTP configuration' },

  // The outbox's own reason for failing a change (db/outbox.ts): no server answered it.
  parentNotSaved: /*i18n*/ { id: 'sync.parentNotSaved', message: 'Not sent: the item it depends on could not be saved.' },
  // A record another refers to that is neither on this device nor on the server: never its id (issue 18).
  unknownRecord: /*i18n*/ { id: 'record.unknown', message: 'unknown' },

  // A website's team (spec §6): roles and members, and what a member may do to them.
  roleNameReserved: /*i18n*/ { id: 'field.roleNameReserved', message: 'The name “admin” is kept for administrators; please choose another one' },
  beyondOwnRole: /*i18n*/ { id: 'team.beyondOwnRole', message: 'You cannot grant, change or remove more than your own role allows.' },
  ownTeamStanding: /*i18n*/ { id: 'team.ownStanding', message: 'You cannot change your own role or status, or remove yourself from the team.' },

  // Gastronomy menus: the answers of the calls beyond CRUD.
  defaultAllergensFailed: /*i18n*/ { id: 'gastro.defaultAllergensFailed', message: 'Failed to load the default allergens' },
  defaultAllergensCreated: /*i18n*/ { id: 'gastro.defaultAllergensCreated', message: '{count, plural, =0 {All standard allergens are already there} one {# allergen added} other {# allergens added}}' },
  allergensCleanedUp: /*i18n*/ { id: 'gastro.allergensCleanedUp', message: '{count, plural, =0 {No dish named a deleted allergen} one {Deleted allergens removed from # dish} other {Deleted allergens removed from # dishes}}' },

  // Contact forms: their fields, the outgoing mail server, the mails, and what a visitor hears.
  formFieldNameFormat: /*i18n*/ { id: 'field.formFieldNameFormat', message: 'Use lower-case letters, digits and underscores, starting with a letter, such as email or phone_2' },
  formFieldNameTaken: /*i18n*/ { id: 'field.formFieldNameTaken', message: 'Two fields have the same name' },
  formOptionsRequired: /*i18n*/ { id: 'field.formOptionsRequired', message: 'A choice needs at least one option' },
  smtpHostFormat: /*i18n*/ { id: 'field.smtpHostFormat', message: 'Use a server name such as smtp.example.com, or an IP address' },
  smtpNotConfigured: /*i18n*/ { id: 'smtp.notConfigured', message: 'Save the SMTP configuration first.' },
  smtpTestSent: /*i18n*/ { id: 'smtp.testSent', message: 'A test mail was sent to {email}.' },
  submissionReceived: /*i18n*/ { id: 'form.submissionReceived', message: 'Thank you! Your message has been received.' },
} satisfies Record<string, MessageDescriptor>;
