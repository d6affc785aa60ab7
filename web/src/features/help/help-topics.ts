// The help guide (issue 42): how to use RescueLog, task by task, as data the page renders and
// searches. Part of the app's bundle, so it reads offline and changes with the next update.
import { z } from 'zod';

export const helpTopicSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(3).max(80),
  keywords: z.array(z.string().min(2)).min(1),
  /** What the task is for, one or two sentences. */
  intro: z.string().min(10),
  steps: z.array(z.string().min(5)).min(1).max(12),
  /** Where in the app it happens, when there is one place. */
  link: z.strictObject({ to: z.string().startsWith('/'), label: z.string().min(3) }).optional(),
});
export type HelpTopic = z.infer<typeof helpTopicSchema>;

export const HELP_TOPICS: readonly HelpTopic[] = [
  {
    id: 'document-a-case-offline',
    title: 'Document a case offline',
    keywords: ['case', 'patient', 'offline', 'no signal', 'new case'],
    intro:
      'Everything you capture is saved on this device first, so you can document a patient with no signal at all.',
    steps: [
      'Tap New Case on the dashboard.',
      'Fill in patient details, then the primary survey, secondary survey, treatment and response details.',
      'Each field is saved on the device as you go; there is no save button to forget.',
      'When the device has signal again, the changes are sent to the server by themselves.',
    ],
    link: { to: '/patient-details', label: 'Start a new case' },
  },
  {
    id: 'not-yet-synced',
    title: 'What “Not yet synced” means',
    keywords: ['sync', 'not yet synced', 'pending', 'offline', 'status bar', 'upload'],
    intro:
      'A record marked “Not yet synced” is safe on this device but the server does not have it yet.',
    steps: [
      'The status bar at the top shows whether the device is online and how many changes are waiting.',
      'Waiting changes are sent in order as soon as the server can be reached, also in the background where the browser allows it.',
      'Do not sign out or clear the browser’s data while changes are waiting: they exist only on this device until they are sent.',
      'Once sent, the mark disappears and colleagues with access see the record.',
    ],
  },
  {
    id: 'rejected-change',
    title: 'When a change was rejected',
    keywords: ['rejected', 'refused', 'conflict', 'sync inbox', 'error', 'try again'],
    intro:
      'The server can refuse a change, for example when you no longer have permission or the case was completed by someone else.',
    steps: [
      'A refused change appears in the sync inbox with the server’s reason.',
      'Read the reason, correct the record if needed, and try again from the inbox.',
      'Where two people changed the same field, both values are kept for review.',
    ],
    link: { to: '/sync-inbox', label: 'Open the sync inbox' },
  },
  {
    id: 'complete-and-correct-a-case',
    title: 'Complete and correct a case',
    keywords: ['complete', 'completed', 'lock', 'addendum', 'correct', 'mistake'],
    intro: 'A completed case is locked so the record stays trustworthy; corrections are addenda.',
    steps: [
      'On the response details screen, check the summary and tap Complete case.',
      'The app lists anything still missing before it lets you complete.',
      'To correct a completed case, open it from Cases Logged and add an addendum with the reason.',
      'The original values and every addendum stay visible, with who wrote them and when.',
    ],
    link: { to: '/case-search', label: 'Open Cases Logged' },
  },
  {
    id: 'log-cpr',
    title: 'Log CPR',
    keywords: ['cpr', 'cardiac arrest', 'resuscitation', 'shock', 'adrenaline', 'logger'],
    intro: 'The CPR logger records each event with its time, one tap each, gloves on.',
    steps: [
      'Tap CPR Logger on the dashboard and start the session.',
      'Tap each event as it happens: rhythm check, shock, adrenaline, airway, return of circulation.',
      'A wrong tap is voided, never erased, so the log stays complete.',
      'End the session; it appears in CPR Logs.',
    ],
    link: { to: '/cpr-logger', label: 'Open the CPR logger' },
  },
  {
    id: 'run-an-mci',
    title: 'Run a mass casualty incident',
    keywords: ['mci', 'mass casualty', 'triage', 'multi-patient', 'incident command'],
    intro: 'Multi-Patient command tracks every casualty of a major incident by triage colour.',
    steps: [
      'Tap Multi-Patient on the dashboard and start an incident.',
      'Add each casualty with their tag number and triage colour.',
      'Change a casualty’s colour as they are re-triaged; the counts update at once.',
      'Close the incident when the scene is cleared; it appears in Multi-Patient Logs.',
    ],
    link: { to: '/multi-patient', label: 'Open Multi-Patient command' },
  },
  {
    id: 'first-aid-protocols',
    title: 'Use the first aid protocols',
    keywords: ['protocol', 'first aid', 'read aloud', 'speech', 'voice', 'steps'],
    intro:
      'Twenty first aid protocols are built into the app and work offline, read aloud step by step.',
    steps: [
      'Open First Aid Protocols and tap a quick button, or search a word or symptom such as bee sting.',
      'Tap Read all aloud, or use the large Previous, Repeat and Next buttons to go one step at a time.',
      'Choose the age group where the steps differ, such as infant CPR.',
      'Change the voice’s speed, pitch and volume under Voice settings.',
    ],
    link: { to: '/protocols', label: 'Open First Aid Protocols' },
  },
  {
    id: 'internal-sops',
    title: 'Read and acknowledge SOPs',
    keywords: ['sop', 'standard operating procedure', 'acknowledge', 'internal', 'policy'],
    intro:
      'Your service’s own procedures, written by administrators, are kept on this device once synced.',
    steps: [
      'Open Internal SOPs; procedures you have not acknowledged are marked.',
      'Read the SOP and tap I have read and understood.',
      'When an administrator publishes a new version, you are asked to acknowledge it again.',
      'Older versions stay readable from the version history.',
    ],
    link: { to: '/internal-protocols', label: 'Open Internal SOPs' },
  },
  {
    id: 'install-the-app',
    title: 'Install the app',
    keywords: ['install', 'home screen', 'app', 'pwa', 'offline'],
    intro: 'Installed, RescueLog opens from the home screen like any app and starts offline.',
    steps: [
      'Open RescueLog in the browser once while online and sign in.',
      'On Android or a computer, choose Install app from the browser menu or the prompt.',
      'On an iPhone or iPad, tap Share, then Add to Home Screen.',
      'When a new version is ready, the app asks before it updates.',
    ],
  },
  {
    id: 'notifications',
    title: 'Turn on notifications',
    keywords: ['notification', 'push', 'alert', 'bell', 'permission'],
    intro: 'Notifications bring callouts and messages from your administrators.',
    steps: [
      'Open your profile and turn on notifications for this device.',
      'Allow notifications when the browser asks.',
      'The bell on the dashboard shows unread messages, also those that arrived while you were offline.',
    ],
    link: { to: '/profile', label: 'Open your profile' },
  },
];
