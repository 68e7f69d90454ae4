// The mail module's entry for other modules: queueing an account mail, the mail type, the mailer
// app.ts makes, and the dev outbox (other senders store their messages there when not configured).
// The plugin (`mailModule`: the `mail.send` job) is in routes.ts, which app.ts imports.
export { createMailer, type Email, listOutbox, type Mailer, storeOutboxMessage } from './mailer';
export { queueMail } from './queue';
