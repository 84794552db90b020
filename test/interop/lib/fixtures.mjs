// What everything-server registers at start-up (examples/everything).
export const FIXTURE_TOOLS = ['test_simple_text', 'test_image_content', 'test_audio_content',
  'test_embedded_resource', 'test_multiple_content_types', 'test_tool_with_logging', 'test_error_handling',
  'test_tool_with_progress', 'test_sampling', 'test_elicitation', 'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums', 'json_schema_2020_12_tool', 'test_reconnection', 'add_resource',
  'update_resource', 'remove_resource', 'add_tool', 'remove_tool', 'add_prompt', 'remove_prompt',
  // 2026-07-28 fixtures (examples/everything/stateless_fixtures.cpp)
  'test_input_required_result_elicitation', 'test_input_required_result_sampling',
  'test_input_required_result_list_roots', 'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs', 'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state', 'test_input_required_result_capabilities',
  'test_missing_capability', 'test_streaming_elicitation', 'test_logging_tool',
  'test_trigger_tool_change', 'test_trigger_prompt_change', 'test_custom_headers',
  // tasks (examples/everything/task_fixtures.cpp)
  'greet', 'slow_compute', 'failing_job', 'protocol_error_job', 'confirm_delete', 'multi_input',
  'test_tool_with_task',
  'server_stats'];
export const FIXTURE_RESOURCES = ['test://static-text', 'test://static-binary', 'test://watched-resource',
  'test://stateless-static-text'];
export const FIXTURE_PROMPTS = ['test_input_required_result_prompt', 'test_prompt_with_arguments',
  'test_prompt_with_embedded_resource', 'test_prompt_with_image', 'test_simple_prompt'];

export const RES_CHANGED = 'notifications/resources/list_changed';
export const TOOLS_CHANGED = 'notifications/tools/list_changed';
export const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
export const UPDATED = 'notifications/resources/updated';
/// Where cafmcp puts operation metadata under params._meta.
export const CHANGE = 'io.cafmcp/change';
