/**
 * The server-default push rule set (the subset of the spec's predefined rules that matters for
 * a chat without encryption or calls): messages notify, own and member events do not.
 */
export function defaultPushRules(userId: string) {
  const localpart = userId.slice(1).split(':')[0];
  const notify = ['notify'];
  const highlight = ['notify', { set_tweak: 'sound', value: 'default' }, { set_tweak: 'highlight' }];
  return {
    global: {
      override: [
        { rule_id: '.m.rule.master', default: true, enabled: false, conditions: [], actions: [] },
        {
          rule_id: '.m.rule.suppress_notices',
          default: true,
          enabled: true,
          conditions: [{ kind: 'event_match', key: 'content.msgtype', pattern: 'm.notice' }],
          actions: [],
        },
        {
          rule_id: '.m.rule.invite_for_me',
          default: true,
          enabled: true,
          conditions: [
            { kind: 'event_match', key: 'type', pattern: 'm.room.member' },
            { kind: 'event_match', key: 'content.membership', pattern: 'invite' },
            { kind: 'event_match', key: 'state_key', pattern: userId },
          ],
          actions: ['notify', { set_tweak: 'sound', value: 'default' }],
        },
        {
          rule_id: '.m.rule.member_event',
          default: true,
          enabled: true,
          conditions: [{ kind: 'event_match', key: 'type', pattern: 'm.room.member' }],
          actions: [],
        },
        {
          rule_id: '.m.rule.contains_display_name',
          default: true,
          enabled: true,
          conditions: [{ kind: 'contains_display_name' }],
          actions: highlight,
        },
      ],
      content: [
        {
          rule_id: '.m.rule.contains_user_name',
          default: true,
          enabled: true,
          pattern: localpart,
          actions: highlight,
        },
      ],
      room: [],
      sender: [],
      underride: [
        {
          rule_id: '.m.rule.room_one_to_one',
          default: true,
          enabled: true,
          conditions: [
            { kind: 'room_member_count', is: '2' },
            { kind: 'event_match', key: 'type', pattern: 'm.room.message' },
          ],
          actions: ['notify', { set_tweak: 'sound', value: 'default' }],
        },
        {
          rule_id: '.m.rule.message',
          default: true,
          enabled: true,
          conditions: [{ kind: 'event_match', key: 'type', pattern: 'm.room.message' }],
          actions: notify,
        },
      ],
    },
  };
}
